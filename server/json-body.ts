import type { FastifyInstance } from 'fastify';
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

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Fastify's JSON body parser with two checks in front (Fastify 5 docs,
 * Reference/ContentTypeParser.md, `getDefaultJsonParser`): the bytes must be UTF-8, where the
 * default decoder would turn a broken sequence (a lone surrogate's bytes, say) into '�' and store
 * that; and the nesting is counted before the text is parsed. What follows is Fastify's own parser,
 * with its refusal of `__proto__` and `constructor` keys and its codes for an empty or broken body,
 * which http-error.ts words.
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
    parse(request, text, done);
  });
}
