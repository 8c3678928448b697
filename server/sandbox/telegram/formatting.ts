/**
 * The Bot API's formatting options (core.telegram.org/bots/api#formatting-options): `parse_mode`
 * HTML, MarkdownV2 and Markdown turned into the plain text and its entities, with offsets and
 * lengths in UTF-16 code units, and refused with Telegram's own words (its parser is TDLib's
 * MessageEntity.cpp: byte offsets are of the UTF-8 markup). Also the bot commands Telegram marks in
 * any text (MessageEntity `bot_command`).
 */

export interface MessageEntity {
  type: string;
  offset: number;
  length: number;
  url?: string;
  user?: { id: number; is_bot: boolean; first_name: string };
  language?: string;
  custom_emoji_id?: string;
}

export interface Formatted {
  text: string;
  entities: MessageEntity[];
}

/** Markup Telegram refuses; `description` follows "Bad Request: can't parse entities: ". */
export class MarkupError extends Error {
  constructor(readonly description: string) {
    super(description);
  }
}

const byteOffset = (markup: string, index: number) => Buffer.byteLength(markup.slice(0, index));

// TDLib sorts entities by offset, the longer first, then by a priority of their type.
const priority: Record<string, number> = {
  blockquote: 0,
  expandable_blockquote: 0,
  pre: 11,
  code: 20,
  text_link: 49,
  text_mention: 49,
  bold: 90,
  italic: 91,
  underline: 92,
  strikethrough: 93,
  spoiler: 94,
  custom_emoji: 99,
};

function sorted(entities: MessageEntity[]): MessageEntity[] {
  return entities.sort((a, b) => a.offset - b.offset || b.length - a.length || (priority[a.type] ?? 50) - (priority[b.type] ?? 50));
}

/** A link's target as Telegram keeps it: a user mention for tg://user?id=, else a checked URL, else none. */
function linkEntity(target: string, offset: number, length: number): MessageEntity | null {
  const mention = /^tg:(?:\/\/)?user\?id=(\d{1,18})$/i.exec(target);
  if (mention) return { type: 'text_mention', offset, length, user: { id: Number(mention[1]), is_bot: false, first_name: '' } };
  if (/\s/.test(target) || target === '') return null;
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:/i.test(target) ? target : `http://${target}`);
    const web = url.protocol === 'http:' || url.protocol === 'https:';
    if (web ? !url.hostname.includes('.') : !['tg:', 'ton:', 'tonsite:'].includes(url.protocol)) return null;
    return { type: 'text_link', offset, length, url: url.href };
  } catch {
    return null;
  }
}

/** `&lt;`, `&gt;`, `&amp;`, `&quot;` and numeric references, a trailing `;` optional; another `&` stays as it is. */
function htmlEntityAt(markup: string, index: number): { codePoint: number; next: number } | null {
  let end = index + 1;
  let codePoint = 0;
  if (markup[end] === '#') {
    end++;
    const hex = markup[end] === 'x';
    if (hex) end++;
    const digits = hex ? /[0-9a-fA-F]/ : /[0-9]/;
    while (end < markup.length && digits.test(markup[end]!)) {
      codePoint = codePoint * (hex ? 16 : 10) + parseInt(markup[end]!, 16);
      end++;
      if (codePoint >= 0x10ffff) return null;
    }
    if (codePoint === 0 || end - index >= 10) return null;
  } else {
    while (end < markup.length && /[a-zA-Z]/.test(markup[end]!)) end++;
    const named: Record<string, number> = { lt: 60, gt: 62, amp: 38, quot: 34 };
    codePoint = named[markup.slice(index + 1, end)] ?? 0;
    if (codePoint === 0) return null;
  }
  if (codePoint >= 0xd800 && codePoint <= 0xdfff) {
    throw new MarkupError(
      'Text contains invalid Unicode characters after decoding HTML entities, check for unmatched surrogate code units',
    );
  }
  return { codePoint, next: markup[end] === ';' ? end + 1 : end };
}

const htmlTags = new Set([
  'a',
  'b',
  'strong',
  'i',
  'em',
  'u',
  'ins',
  's',
  'strike',
  'del',
  'span',
  'tg-spoiler',
  'code',
  'pre',
  'tg-emoji',
  'blockquote',
]);
const simpleHtmlTypes: Record<string, string> = {
  b: 'bold',
  strong: 'bold',
  i: 'italic',
  em: 'italic',
  u: 'underline',
  ins: 'underline',
  s: 'strikethrough',
  strike: 'strikethrough',
  del: 'strikethrough',
  span: 'spoiler',
  'tg-spoiler': 'spoiler',
};
const isSpace = (character: string | undefined) => character !== undefined && /[ \t\r\n\f\v]/.test(character);

/** HTML style: https://core.telegram.org/bots/api#html-style */
export function parseHtml(markup: string): Formatted {
  let text = '';
  const entities: MessageEntity[] = [];
  const open: { tag: string; argument: string; offset: number; expandable: boolean }[] = [];
  let i = 0;
  while (i < markup.length) {
    const character = markup[i]!;
    if (character === '&') {
      const entity = htmlEntityAt(markup, i);
      if (entity) {
        text += String.fromCodePoint(entity.codePoint);
        i = entity.next;
        continue;
      }
    }
    if (character !== '<') {
      text += character;
      i++;
      continue;
    }
    const begin = i++;
    const at = byteOffset(markup, begin);
    if (markup[i] !== '/') {
      while (i < markup.length && !isSpace(markup[i]) && markup[i] !== '>') i++;
      if (i >= markup.length) throw new MarkupError(`Unclosed start tag at byte offset ${at}`);
      const tag = markup.slice(begin + 1, i).toLowerCase();
      if (!htmlTags.has(tag)) throw new MarkupError(`Unsupported start tag "${tag}" at byte offset ${at}`);
      let argument = '';
      let expandable = false;
      while (markup[i] !== '>') {
        while (isSpace(markup[i])) i++;
        if (markup[i] === '>') break;
        const nameBegin = i;
        while (i < markup.length && !isSpace(markup[i]) && markup[i] !== '=' && markup[i] !== '>') i++;
        const name = markup.slice(nameBegin, i).toLowerCase();
        if (name === '') throw new MarkupError(`Empty attribute name in the tag "${tag}" at byte offset ${at}`);
        while (isSpace(markup[i])) i++;
        if (i >= markup.length) throw new MarkupError(`Unclosed start tag "${tag}" at byte offset ${at}`);
        if (markup[i] !== '=') {
          if (tag === 'blockquote' && name === 'expandable') expandable = true;
          continue;
        }
        i++;
        while (isSpace(markup[i])) i++;
        if (i >= markup.length) throw new MarkupError(`Unclosed start tag "${tag}" at byte offset ${at}`);
        let value = '';
        const quote = markup[i];
        if (quote !== '"' && quote !== "'") {
          const tokenBegin = i;
          while (i < markup.length && /[a-zA-Z0-9.-]/.test(markup[i]!)) i++;
          value = markup.slice(tokenBegin, i).toLowerCase();
          if (!isSpace(markup[i]) && markup[i] !== '>') {
            throw new MarkupError(`Unexpected end of name token at byte offset ${byteOffset(markup, tokenBegin)}`);
          }
        } else {
          i++;
          while (i < markup.length && markup[i] !== quote) {
            const entity = markup[i] === '&' ? htmlEntityAt(markup, i) : null;
            value += entity ? String.fromCodePoint(entity.codePoint) : markup[i];
            i = entity ? entity.next : i + 1;
          }
          if (markup[i] !== quote) throw new MarkupError(`Unclosed start tag at byte offset ${at}`);
          i++;
        }
        if (tag === 'a' && name === 'href') argument = value;
        else if (tag === 'code' && name === 'class' && value.startsWith('language-')) argument = value.slice('language-'.length);
        else if (tag === 'span' && name === 'class' && value.startsWith('tg-')) argument = value.slice('tg-'.length);
        else if (tag === 'tg-emoji' && name === 'emoji-id') argument = value;
        else if (tag === 'blockquote' && name === 'expandable') expandable = true;
      }
      if (tag === 'span' && argument !== 'spoiler') throw new MarkupError(`Tag "span" must have class "tg-spoiler" at byte offset ${at}`);
      open.push({ tag, argument, offset: text.length, expandable });
      i++;
      continue;
    }
    if (open.length === 0) throw new MarkupError(`Unexpected end tag at byte offset ${at}`);
    while (i < markup.length && !isSpace(markup[i]) && markup[i] !== '>') i++;
    const endTag = markup.slice(begin + 2, i).toLowerCase();
    while (isSpace(markup[i])) i++;
    if (markup[i] !== '>') throw new MarkupError(`Unclosed end tag at byte offset ${at}`);
    i++;
    const { tag, argument, offset, expandable } = open.pop()!;
    if (endTag !== '' && endTag !== tag) {
      throw new MarkupError(`Unmatched end tag at byte offset ${at}, expected "</${tag}>", found "</${endTag}>"`);
    }
    const length = text.length - offset;
    if (length === 0) continue;
    const last = entities.at(-1);
    const sameSpan = last !== undefined && last.offset === offset && last.length === length;
    if (simpleHtmlTypes[tag]) entities.push({ type: simpleHtmlTypes[tag]!, offset, length });
    else if (tag === 'blockquote') entities.push({ type: expandable ? 'expandable_blockquote' : 'blockquote', offset, length });
    else if (tag === 'tg-emoji') {
      if (!/^\d{1,19}$/.test(argument)) throw new MarkupError(`Invalid custom emoji identifier specified`);
      entities.push({ type: 'custom_emoji', offset, length, custom_emoji_id: argument });
    } else if (tag === 'a') {
      const link = linkEntity(argument || text.slice(offset), offset, length);
      if (link) entities.push(link);
    } else if (tag === 'pre') {
      // <code class="language-…"><pre>…</pre></code> is a pre block in that language, as <pre><code class="language-…">.
      if (sameSpan && last.type === 'code' && last.language) last.type = 'pre';
      else entities.push({ type: 'pre', offset, length });
    } else if (sameSpan && last.type === 'pre' && argument !== '') last.language = argument;
    else entities.push({ type: 'code', offset, length, ...(argument ? { language: argument } : {}) });
  }
  if (open.length > 0) throw new MarkupError(`Can't find end tag corresponding to start tag "${open.at(-1)!.tag}"`);
  // A language on a code span outside a pre block is not kept.
  for (const entity of entities) if (entity.type === 'code') delete entity.language;
  return { text, entities: sorted(entities) };
}

const markdownV2Reserved = '_*[]()~`>#+-=|{}.!';
const markdownV2Names: Record<string, string> = {
  bold: 'Bold',
  italic: 'Italic',
  underline: 'Underline',
  strikethrough: 'Strikethrough',
  spoiler: 'Spoiler',
  code: 'Code',
  pre: 'Pre',
  pre_code: 'PreCode',
  text_link: 'TextUrl',
  custom_emoji: 'CustomEmoji',
};

const escapable = (character: string | undefined) =>
  character !== undefined && character.charCodeAt(0) >= 1 && character.charCodeAt(0) <= 126;

/**
 * MarkdownV2 style: https://core.telegram.org/bots/api#markdownv2-style. Block quotations are
 * lines that begin with '>'; the expandable kind (`**>…||`) is not played.
 */
export function parseMarkdownV2(markup: string): Formatted {
  let text = '';
  const entities: MessageEntity[] = [];
  const open: { type: string; argument: string; offset: number; at: number }[] = [];
  let quote: { offset: number } | null = null;
  const endQuote = () => {
    if (quote && text.length > quote.offset)
      entities.push({ type: 'blockquote', offset: quote.offset, length: text.length - quote.offset });
    quote = null;
  };
  for (let i = 0; i < markup.length; i++) {
    const character = markup[i]!;
    const inCode = ['code', 'pre', 'pre_code'].includes(open.at(-1)?.type ?? '');
    if ((i === 0 || markup[i - 1] === '\n') && !inCode) {
      if (character === '>') {
        quote ??= { offset: text.length };
        continue;
      }
      endQuote();
    }
    if (character === '\\' && escapable(markup[i + 1])) {
      text += markup[++i];
      continue;
    }
    const reserved = inCode ? '`' : markdownV2Reserved;
    if (!reserved.includes(character)) {
      text += character;
      continue;
    }
    const top = open.at(-1);
    const next = markup[i + 1];
    const ends =
      top !== undefined &&
      {
        bold: character === '*',
        italic: character === '_' && next !== '_',
        underline: character === '_' && next === '_',
        strikethrough: character === '~',
        spoiler: character === '|' && next === '|',
        code: character === '`',
        pre: character === '`' && next === '`' && markup[i + 2] === '`',
        pre_code: character === '`' && next === '`' && markup[i + 2] === '`',
        text_link: character === ']',
        custom_emoji: character === ']',
      }[top.type];
    if (!ends) {
      const at = byteOffset(markup, i);
      let type: string;
      let argument = '';
      if (character === '_' && next === '_') {
        type = 'underline';
        i++;
      } else if (character === '_') type = 'italic';
      else if (character === '*') type = 'bold';
      else if (character === '~') type = 'strikethrough';
      else if (character === '|' && next === '|') {
        type = 'spoiler';
        i++;
      } else if (character === '[') type = 'text_link';
      else if (character === '!' && next === '[') {
        type = 'custom_emoji';
        i++;
      } else if (character === '`' && next === '`' && markup[i + 2] === '`') {
        i += 3;
        type = 'pre';
        let languageEnd = i;
        while (languageEnd < markup.length && !isSpace(markup[languageEnd]) && markup[languageEnd] !== '`') languageEnd++;
        if (languageEnd !== i && languageEnd < markup.length && markup[languageEnd] !== '`') {
          type = 'pre_code';
          argument = markup.slice(i, languageEnd);
          i = languageEnd;
        }
        if (markup[i] === '\n' || markup[i] === '\r') {
          const pair = (markup[i + 1] === '\n' || markup[i + 1] === '\r') && markup[i] !== markup[i + 1];
          i += pair ? 2 : 1;
        }
        i--;
      } else if (character === '`') type = 'code';
      else throw new MarkupError(`Character '${character}' is reserved and must be escaped with the preceding '\\'`);
      open.push({ type, argument, offset: text.length, at });
      continue;
    }
    const { type, argument, offset } = open.pop()!;
    const length = text.length - offset;
    if (type === 'underline' || type === 'spoiler') i++;
    if (type === 'pre' || type === 'pre_code') i += 2;
    let entity: MessageEntity | null = { type, offset, length };
    if (type === 'pre_code') entity = { type: 'pre', offset, length, language: argument };
    if (type === 'text_link' || type === 'custom_emoji') {
      let target = '';
      if (markup[i + 1] === '(') {
        i += 2;
        const targetBegin = i;
        while (i < markup.length && markup[i] !== ')') {
          if (markup[i] === '\\' && escapable(markup[i + 1])) i++;
          target += markup[i++];
        }
        if (markup[i] !== ')') throw new MarkupError(`Can't find end of a URL at byte offset ${byteOffset(markup, targetBegin)}`);
      } else if (type === 'text_link') target = text.slice(offset);
      if (type === 'text_link') entity = linkEntity(target, offset, length);
      else {
        const emoji = /^tg:\/\/emoji\/?\?(?:[^#]*&)?id=([1-9]\d{0,18})(?:[&#]|$)/i.exec(target);
        if (!target) throw new MarkupError('The entity must contain a tg://emoji or tg://time URL');
        if (!emoji) throw new MarkupError('Invalid tg://emoji or tg://time URL specified');
        entity = { type, offset, length, custom_emoji_id: emoji[1] };
      }
    }
    if (entity && length > 0) entities.push(entity);
  }
  if (open.length > 0) {
    const unclosed = open.at(-1)!;
    throw new MarkupError(`Can't find end of ${markdownV2Names[unclosed.type]} entity at byte offset ${unclosed.at}`);
  }
  endQuote();
  return { text, entities: sorted(entities) };
}

/** The legacy Markdown style: https://core.telegram.org/bots/api#markdown-style */
export function parseMarkdown(markup: string): Formatted {
  let text = '';
  const entities: MessageEntity[] = [];
  for (let i = 0; i < markup.length; i++) {
    const character = markup[i]!;
    if (character === '\\' && '_*`['.includes(markup[i + 1] ?? '')) {
      text += markup[++i];
      continue;
    }
    if (!'_*`['.includes(character)) {
      text += character;
      continue;
    }
    const at = byteOffset(markup, i);
    const offset = text.length;
    const pre = character === '`' && markup.startsWith('```', i);
    const closing = pre ? '```' : character === '[' ? ']' : character;
    let j = i + (pre ? 3 : 1);
    let language = '';
    if (pre) {
      const languageEnd = markup.slice(j).search(/[\s`]/);
      if (languageEnd > 0 && markup[j + languageEnd] !== '`') {
        language = markup.slice(j, j + languageEnd);
        j += languageEnd;
      }
      if (markup[j] === '\n') j++;
    }
    const end = markup.indexOf(closing, j);
    if (end < 0) throw new MarkupError(`Can't find end of the entity starting at byte offset ${at}`);
    text += markup.slice(j, end);
    i = end + closing.length - 1;
    const length = text.length - offset;
    if (character === '[') {
      const target = /^\(([^)]*)\)/.exec(markup.slice(i + 1));
      if (!target) continue;
      i += target[0].length;
      const link = length > 0 ? linkEntity(target[1]!, offset, length) : null;
      if (link) entities.push(link);
      continue;
    }
    if (length === 0) continue;
    const type = pre ? 'pre' : { _: 'italic', '*': 'bold', '`': 'code' }[character]!;
    entities.push({ type, offset, length, ...(language ? { language } : {}) });
  }
  return { text, entities: sorted(entities) };
}

/**
 * Where Telegram marks a bot command: `/name` (up to 64 letters, digits or '_'), optionally
 * `@bot`, at the start or after a character that is not part of a word or path.
 */
export function botCommands(text: string): MessageEntity[] {
  const entities: MessageEntity[] = [];
  for (const match of text.matchAll(/(?<![\p{L}\p{N}_/<>])\/[A-Za-z0-9_]{1,64}(?:@[A-Za-z0-9_]{3,32})?(?![\p{L}\p{N}_/@])/gu)) {
    entities.push({ type: 'bot_command', offset: match.index!, length: match[0].length });
  }
  return entities;
}

export type ParseMode = 'HTML' | 'MarkdownV2' | 'Markdown';

/** The text and entities of `markup` in `mode` (Telegram takes the mode's name in any case); null for a mode it does not know. */
export function formatted(markup: string, mode: string | undefined): Formatted | null {
  const parse = { '': (text: string) => ({ text, entities: [] }), html: parseHtml, markdownv2: parseMarkdownV2, markdown: parseMarkdown }[
    (mode ?? '').toLowerCase()
  ];
  return parse ? parse(markup) : null;
}
