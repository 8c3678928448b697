import { STATUS_CODES } from 'node:http';
import type { FastifySchemaValidationError } from 'fastify/types/schema';
import type { Struct } from 'superstruct';
import { t } from './messages';
import { check } from '../src/lib/validation';

/** An error whose status and Ukrainian message(s) go to the client as they are. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly messages: string | string[],
  ) {
    super(Array.isArray(messages) ? messages.join('; ') : messages);
  }
}

/** The body checked against the same schema the form uses; 400 with the form's messages otherwise. */
export function parseBody<T>(schema: Struct<T, unknown>, body: unknown): T {
  const result = check(schema, body ?? {});
  if (!result.ok) throw new HttpError(400, result.messages);
  return result.value;
}

/** A field's name as the messages give it: its path, dotted; an unknown key cut short, as anyone may send any key. */
function fieldOf(path: string[]): string {
  const field = path.join('.');
  return field.length > 100 ? `${field.slice(0, 100)}…` : field;
}

/** JSON Pointer segments of ajv's `instancePath`, unescaped (RFC 6901: ~1 is '/', ~0 is '~'). */
const pathOf = (instancePath: string) =>
  instancePath
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));

const typeWords = (types: unknown) =>
  [...new Set([types].flat().map(String))].map((type) => t.validation.types[type] ?? type).join(t.validation.or);

/** "Field X must be a Y", or of the whole body when the path is empty. */
const wrongType = (path: string[], types: unknown) =>
  path.length === 0 ? t.validation.bodyWrongType(typeWords(types)) : t.validation.wrongType(fieldOf(path), typeWords(types));

function messageOf(error: FastifySchemaValidationError): string {
  const params = error.params as Record<string, unknown>;
  const path = pathOf(error.instancePath);
  switch (error.keyword) {
    case 'required':
      return t.validation.required;
    case 'maxLength':
      return t.validation.tooLong(Number(params.limit));
    case 'minLength':
      return t.validation.tooShort(Number(params.limit));
    case 'maxItems':
      return t.validation.tooMany(fieldOf(path));
    case 'additionalProperties':
      return t.validation.unknownField(fieldOf([...path, String(params.additionalProperty)]));
    case 'type':
      return wrongType(path, params.type);
    case 'pattern':
      return String(params.pattern).includes('u0000')
        ? t.validation.controlCharacters(fieldOf(path))
        : t.validation.invalidValue(fieldOf(path));
    default:
      return t.validation.invalidValue(fieldOf(path) || '—');
  }
}

/**
 * A route schema's verdict in the operator's words: the spec's messages where a form has them
 * (required, too short, too long), else which field is wrong and how. ajv reports each failed
 * branch of an `anyOf` (Nullable, Literals) before the anyOf itself: a branch whose type the value
 * has says what is wrong inside it; when the value has none of their types, the message lists
 * them ('текстом або null'). Never the validator's English.
 */
export function schemaMessages(errors: FastifySchemaValidationError[]): string[] {
  const alternatives = errors.filter((error) => error.keyword === 'anyOf');
  const branchOf = (error: FastifySchemaValidationError) =>
    alternatives.find((anyOf) => anyOf !== error && error.schemaPath.startsWith(`${anyOf.schemaPath}/`));
  const explained = new Set<FastifySchemaValidationError>();
  const expected = new Map<FastifySchemaValidationError, unknown[]>();
  const messages: string[] = [];
  for (const error of errors) {
    const anyOf = error.keyword === 'anyOf' ? undefined : branchOf(error);
    if (!anyOf) continue;
    if (error.keyword === 'type' && error.instancePath === anyOf.instancePath) {
      expected.set(anyOf, [...(expected.get(anyOf) ?? []), (error.params as { type: unknown }).type]);
    } else if (error.keyword !== 'const') {
      explained.add(anyOf);
    }
  }
  for (const error of errors) {
    const anyOf = error.keyword === 'anyOf' ? undefined : branchOf(error);
    if (anyOf) {
      const insideMatchingBranch = error.keyword !== 'const' && !(error.keyword === 'type' && error.instancePath === anyOf.instancePath);
      if (insideMatchingBranch) messages.push(messageOf(error));
    } else if (error.keyword === 'anyOf') {
      if (explained.has(error)) continue;
      const types = expected.get(error);
      const everyBranchIsAType = types !== undefined && errors.filter((other) => branchOf(other) === error).length === types.length;
      messages.push(everyBranchIsAType ? wrongType(pathOf(error.instancePath), types.flat()) : messageOf(error));
    } else {
      messages.push(messageOf(error));
    }
  }
  return [...new Set(messages)];
}

/**
 * Postgres refuses the value itself (class 22: out of range, bad encoding, NUL byte...; 23514: a
 * length CHECK): the request's fault, never a server error.
 */
export function isDataException(error: unknown): boolean {
  const candidates = [error, (error as { cause?: unknown } | undefined)?.cause];
  return candidates.some((candidate) => /^(22[0-9A-Z]{3}|23514)$/.test(String((candidate as { code?: unknown } | undefined)?.code ?? '')));
}

/**
 * The disk (or the user's quota on it) is full: ENOSPC / EDQUOT from a write. Not the request's
 * fault, and not an unknown failure either: 507 Insufficient Storage, which an operator can report.
 */
export function isDiskFull(error: unknown): boolean {
  const candidates = [error, (error as { cause?: unknown } | undefined)?.cause];
  return candidates.some((candidate) => ['ENOSPC', 'EDQUOT'].includes(String((candidate as { code?: unknown } | undefined)?.code ?? '')));
}

/** An error answer in SPEC's shape (`message` a string or a list), every word of it from the catalog. */
export function errorBody(statusCode: number, message: string | string[]) {
  const error = t.server.statusNames[statusCode] ?? t.server.statusNames[statusCode >= 500 ? 500 : 400];
  return { statusCode, error, message };
}

/**
 * Fastify's own refusals of a request, by code, in the operator's words (Fastify 5 docs,
 * Reference/Errors.md: FST_ERR_CTP_* are the body parser's, FST_ERR_BAD_URL and
 * FST_ERR_MAX_PARAM_LENGTH the router's, reaching the error handler through `frameworkErrors`,
 * Reference/Server.md). Their own messages are English. @fastify/multipart's (FST_REQ_FILE_TOO_LARGE,
 * FST_PARTS_LIMIT, a truncated form) are worded where the parts are read, server/media/uploads.ts.
 */
const frameworkRefusals: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: t.server.bodyTooLarge,
  FST_ERR_CTP_INVALID_MEDIA_TYPE: t.server.unsupportedMediaType,
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: t.server.bodyLengthMismatch,
  FST_ERR_CTP_EMPTY_JSON_BODY: t.server.emptyJson,
  FST_ERR_CTP_INVALID_JSON_BODY: t.server.invalidJson,
  FST_ERR_BAD_URL: t.server.badUrl,
  FST_ERR_MAX_PARAM_LENGTH: t.server.urlTooLong,
  FST_ERR_ASYNC_CONSTRAINT: t.server.badRequest,
};

/** The message for a 4xx that neither a route nor a schema worded: Fastify's or a plugin's, by its code. */
export function frameworkRefusal(error: { code?: string; statusCode?: number }): string {
  if (error.code !== undefined && error.code in frameworkRefusals) return frameworkRefusals[error.code]!;
  // A body parser's SyntaxError without a code (a plugin's own JSON parser, say).
  if (error instanceof SyntaxError) return t.server.invalidJson;
  return error.statusCode === 404 ? t.server.notFound : t.server.badRequest;
}

/**
 * Node's HTTP parser refuses a request before Fastify sees one (Fastify 5 docs,
 * Reference/Server.md `clientErrorHandler`; Node's `clientError` event): headers over the limit,
 * a request that took too long, bytes that are no HTTP (the rest of a body after an early answer,
 * say). Fastify's default answers these in English ('Client Error'); this is its Ukrainian twin,
 * written to the raw socket as the option requires.
 */
export function clientErrorAnswer(error: { code?: string }): string {
  const [statusCode, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, t.server.headersTooLarge]
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, t.server.requestTimeout]
        : [400, t.server.malformedRequest];
  const body = JSON.stringify(errorBody(statusCode, message));
  return [
    `HTTP/1.1 ${statusCode} ${STATUS_CODES[statusCode]}`,
    'content-type: application/json; charset=utf-8',
    `content-length: ${Buffer.byteLength(body)}`,
    'connection: close',
    '',
    body,
  ].join('\r\n');
}
