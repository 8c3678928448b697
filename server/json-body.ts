import type { FastifyInstance, FastifyRequest } from 'fastify';
import { t } from './messages';
import { HttpError } from './http-error';

/**
 * The deepest a JSON body may nest its objects and arrays. The API's deepest body, the publish
 * payload, has four levels (body → video → item → account); a body far deeper is no request of
 * the SPA's, and each level costs the parser and the validator a stack frame.
 */
export const maxJsonDepth = 16;

/** Whether the JSON text nests deeper than `limit`, counted over its characters before any parsing; brackets inside strings do not count. */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c) index++;
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) {
      inString = true;
    } else if (code === 0x7b || code === 0x5b) {
      if (++depth > limit) return true;
    } else if (code === 0x7d || code === 0x5d) {
      depth--;
    }
  }
  return false;
}

/**
 * The first name an object of a JSON text gives twice, or null. RFC 7493 (I-JSON) §2.3: objects
 * have no duplicate names, as parsers disagree on which value wins; JSON.parse keeps the last, a
 * proxy or a logger before it may read the first. Names compare once their escapes are read, so
 * "name" and "\u006eame" are one name. The text is JSON the parser has taken.
 */
export function duplicateName(text: string): string | null {
  /** The names met so far in each enclosing object; null for an array. */
  const open: (Set<string> | null)[] = [];
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 0x7b) open.push(new Set());
    else if (code === 0x5b) open.push(null);
    else if (code === 0x7d || code === 0x5d) open.pop();
    else if (code === 0x22) {
      let end = index + 1;
      while (text.charCodeAt(end) !== 0x22) end += text.charCodeAt(end) === 0x5c ? 2 : 1;
      let next = end + 1;
      while (/\s/.test(text[next] ?? '')) next++;
      const names = open.at(-1);
      if (names && text[next] === ':') {
        const quoted = text.slice(index, end + 1);
        const name = quoted.includes('\\') ? (JSON.parse(quoted) as string) : quoted.slice(1, -1);
        if (names.has(name)) return name;
        names.add(name);
      }
      index = end;
    }
  }
  return null;
}

/** The charset a Content-Type names other than UTF-8, which is all this server reads; null when it names none or UTF-8. */
export function foreignCharset(contentType: string | undefined): string | null {
  for (const [, charset] of (contentType ?? '').matchAll(/;\s*charset\s*=\s*"?([^";\s]*)"?/gi)) {
    if (!/^utf-?8$/i.test(charset!)) return charset!;
  }
  return null;
}

/** Every body is read as UTF-8: one that says it is in another charset is refused (415) before it is read. */
export async function refuseForeignCharsets(request: FastifyRequest) {
  const charset = foreignCharset(request.headers['content-type']);
  if (charset !== null) throw new HttpError(415, t.server.unsupportedCharset(charset));
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Fastify's JSON body parser with two checks in front (Fastify 5 docs,
 * Reference/ContentTypeParser.md, `getDefaultJsonParser`): the bytes must be UTF-8, where the
 * default decoder would turn a broken sequence (a lone surrogate's bytes, say) into '�' and store
 * that; and the nesting is counted before the text is parsed. What follows is Fastify's own parser,
 * with its refusal of `__proto__` and `constructor` keys and its codes for an empty or broken body,
 * which http-error.ts words, and then the refusal of a name given twice in one object.
 */
export function strictJsonBodies(app: FastifyInstance) {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    let text: string;
    try {
      text = utf8.decode(body as Buffer);
    } catch {
      done(new HttpError(400, t.server.invalidUtf8), undefined);
      return;
    }
    if (nestsDeeperThan(text, maxJsonDepth)) {
      done(new HttpError(400, t.server.jsonTooDeep(maxJsonDepth)), undefined);
      return;
    }
    parse(request, text, (error, body) => {
      const twice = error ? null : duplicateName(text);
      if (twice !== null) done(new HttpError(400, t.server.duplicateJsonName(twice)), undefined);
      else done(error, body);
    });
  });
}
