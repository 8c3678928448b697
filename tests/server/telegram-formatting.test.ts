import { describe, expect, it } from 'vitest';
import { botCommands, formatted, MarkupError, parseHtml, parseMarkdown, parseMarkdownV2 } from '../../server/sandbox/telegram/formatting';

/**
 * The sandbox's parse_mode (core.telegram.org/bots/api#formatting-options), checked against what
 * Telegram answers: TDLib's own parser (MessageEntity.cpp) and its tests give the texts, the
 * entities in UTF-16 offsets and the refusals with byte offsets of the UTF-8 markup.
 */

const refusal = (parse: () => unknown) => {
  try {
    parse();
  } catch (error) {
    if (error instanceof MarkupError) return error.description;
    throw error;
  }
  return null;
};

describe('HTML style', () => {
  it('turns the supported tags into entities, offsets in UTF-16 code units', () => {
    expect(parseHtml('➡️ ➡️<b>➡️ ➡️</b>')).toEqual({ text: '➡️ ➡️➡️ ➡️', entities: [{ type: 'bold', offset: 5, length: 5 }] });
    const all = parseHtml(
      '<b>b</b><strong>b</strong><i>i</i><em>i</em><u>u</u><ins>u</ins><s>s</s><strike>s</strike><del>s</del>' +
        '<span class="tg-spoiler">p</span><tg-spoiler>p</tg-spoiler><code>c</code><blockquote>q</blockquote><blockquote expandable>e</blockquote>',
    );
    expect(all.text).toBe('bbiiuusssppcqe');
    expect(all.entities.map((entity) => entity.type)).toEqual([
      'bold',
      'bold',
      'italic',
      'italic',
      'underline',
      'underline',
      'strikethrough',
      'strikethrough',
      'strikethrough',
      'spoiler',
      'spoiler',
      'code',
      'blockquote',
      'expandable_blockquote',
    ]);
    expect(parseHtml('<a href="https://example.com/a?b=1&amp;c=2">link</a> <a href="tg://user?id=42">Оля</a>').entities).toEqual([
      { type: 'text_link', offset: 0, length: 4, url: 'https://example.com/a?b=1&c=2' },
      { type: 'text_mention', offset: 5, length: 3, user: { id: 42, is_bot: false, first_name: '' } },
    ]);
    expect(parseHtml('<pre><code class="language-ts">const a = 1;</code></pre>').entities).toEqual([
      { type: 'pre', offset: 0, length: 12, language: 'ts' },
    ]);
    expect(parseHtml('<tg-emoji emoji-id="5368324170671202286">👍</tg-emoji>').entities).toEqual([
      { type: 'custom_emoji', offset: 0, length: 2, custom_emoji_id: '5368324170671202286' },
    ]);
  });

  it('decodes &lt; &gt; &amp; &quot; and numeric references, leaving other & as they are', () => {
    expect(parseHtml('&lt;&gt;&amp;&quot;&#65;&#x42;&ge;&laquo; a & b')).toEqual({ text: '<>&"AB&ge;&laquo; a & b', entities: [] });
  });

  it('nests entities and sorts them as Telegram does', () => {
    expect(parseHtml('<i><b> </b> <code> </code></i>').entities).toEqual([
      { type: 'italic', offset: 0, length: 3 },
      { type: 'bold', offset: 0, length: 1 },
      { type: 'code', offset: 2, length: 1 },
    ]);
    expect(parseHtml('<b></b>x').entities).toEqual([]);
  });

  it('refuses bad markup with Telegram’s words and byte offsets', () => {
    const cases: [string, string][] = [
      ['🏟 🏟&lt;<abacaba', 'Unclosed start tag at byte offset 13'],
      ['🏟 🏟&lt;<abac aba>', 'Unsupported start tag "abac" at byte offset 13'],
      ['a < b', 'Unsupported start tag "" at byte offset 2'],
      ['<div>x</div>', 'Unsupported start tag "div" at byte offset 0'],
      ['🏟 🏟&lt;<i   =aba>', 'Empty attribute name in the tag "i" at byte offset 13'],
      ['🏟 🏟&lt;<i    aba>', 'Can\'t find end tag corresponding to start tag "i"'],
      ['🏟 🏟&lt;<i    aba  =  190azAz-.,', 'Unexpected end of name token at byte offset 27'],
      ['🏟 🏟&lt;</', 'Unexpected end tag at byte offset 13'],
      ['🏟 🏟&lt;<i>a</i   ', 'Unclosed end tag at byte offset 17'],
      ['🏟 🏟&lt;<i>a</em   >', 'Unmatched end tag at byte offset 17, expected "</i>", found "</em>"'],
      ['<b>bold</i>', 'Unmatched end tag at byte offset 7, expected "</b>", found "</i>"'],
      ['<span class="x">a</span>', 'Tag "span" must have class "tg-spoiler" at byte offset 0'],
      ['&#xDFDF;', 'Text contains invalid Unicode characters after decoding HTML entities, check for unmatched surrogate code units'],
    ];
    for (const [markup, description] of cases)
      expect(
        refusal(() => parseHtml(markup)),
        markup,
      ).toBe(description);
  });
});

describe('MarkdownV2 style', () => {
  it('turns the markup into entities and takes escapes', () => {
    expect(parseMarkdownV2('*bold \\*text*')).toEqual({ text: 'bold *text', entities: [{ type: 'bold', offset: 0, length: 10 }] });
    expect(parseMarkdownV2('🏟 🏟_🏟 __🏟___').entities).toEqual([
      { type: 'italic', offset: 5, length: 5 },
      { type: 'underline', offset: 8, length: 2 },
    ]);
    expect(parseMarkdownV2('~s~ ||p|| `c\\`` [site](https://example.com/a\\)b) [t](tg://user?id=7)')).toEqual({
      text: 's p c` site t',
      entities: [
        { type: 'strikethrough', offset: 0, length: 1 },
        { type: 'spoiler', offset: 2, length: 1 },
        { type: 'code', offset: 4, length: 2 },
        { type: 'text_link', offset: 7, length: 4, url: 'https://example.com/a)b' },
        { type: 'text_mention', offset: 12, length: 1, user: { id: 7, is_bot: false, first_name: '' } },
      ],
    });
    expect(parseMarkdownV2('```python\nprint(1)\n```')).toEqual({
      text: 'print(1)\n',
      entities: [{ type: 'pre', offset: 0, length: 9, language: 'python' }],
    });
    expect(parseMarkdownV2('abc\n> \n> \n>\ndef')).toEqual({
      text: 'abc\n \n \n\ndef',
      entities: [{ type: 'blockquote', offset: 4, length: 5 }],
    });
    expect(parseMarkdownV2('\\\\\\_\\*\\.')).toEqual({ text: '\\_*.', entities: [] });
  });

  it('refuses unescaped reserved characters and unclosed entities with Telegram’s words', () => {
    const cases: [string, string][] = [
      ['Ціна 5.00', "Character '.' is reserved and must be escaped with the preceding '\\'"],
      ['🏟 🏟!', "Character '!' is reserved and must be escaped with the preceding '\\'"],
      ['a-b', "Character '-' is reserved and must be escaped with the preceding '\\'"],
      ['🏟 🏟_abacaba', "Can't find end of Italic entity at byte offset 9"],
      ['🏟 🏟_abac * asd ', "Can't find end of Bold entity at byte offset 15"],
      ['🏟 🏟`', "Can't find end of Code entity at byte offset 9"],
      ['🏟 🏟```a ', "Can't find end of PreCode entity at byte offset 9"],
      ['🏟 🏟__', "Can't find end of Underline entity at byte offset 9"],
      ['[telegram\\.org](asd', "Can't find end of a URL at byte offset 16"],
    ];
    for (const [markup, description] of cases)
      expect(
        refusal(() => parseMarkdownV2(markup)),
        markup,
      ).toBe(description);
  });
});

describe('Markdown (legacy) style and bot commands', () => {
  it('reads *bold*, _italic_, `code` and [links](…), and refuses an entity left open', () => {
    expect(parseMarkdown('*b* _i_ `c` [l](https://example.com)')).toEqual({
      text: 'b i c l',
      entities: [
        { type: 'bold', offset: 0, length: 1 },
        { type: 'italic', offset: 2, length: 1 },
        { type: 'code', offset: 4, length: 1 },
        { type: 'text_link', offset: 6, length: 1, url: 'https://example.com/' },
      ],
    });
    expect(refusal(() => parseMarkdown('a *b'))).toBe("Can't find end of the entity starting at byte offset 2");
  });

  it('marks commands at the start and inside the text, not inside words or paths', () => {
    expect(botCommands('/start ABCD2345')).toEqual([{ type: 'bot_command', offset: 0, length: 6 }]);
    expect(botCommands('try /help@shorts_office_sandbox_bot now')).toEqual([{ type: 'bot_command', offset: 4, length: 31 }]);
    expect(botCommands('a/b /usr/bin word/start')).toEqual([]);
  });

  it('takes the mode in any case, and knows no other', () => {
    expect(formatted('<b>x</b>', 'html')?.entities).toEqual([{ type: 'bold', offset: 0, length: 1 }]);
    expect(formatted('<b>x</b>', undefined)).toEqual({ text: '<b>x</b>', entities: [] });
    expect(formatted('x', 'BBCode')).toBeNull();
  });
});
