import type { FastifySchemaValidationError } from 'fastify/types/schema';
import type { Struct } from 'superstruct';
import { t } from '../src/lib/i18n';
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

/**
 * A route schema's verdict in the operator's words: the spec's messages where a form has them
 * (required, too short, too long), else which field is wrong. Never the validator's English.
 */
export function schemaMessages(errors: FastifySchemaValidationError[]): string[] {
  const messages = errors.map((error) => {
    const params = error.params as Record<string, unknown>;
    const path = error.instancePath.split('/').filter(Boolean);
    if (error.keyword === 'required') path.push(String(params.missingProperty));
    const field = path.join('.') || '—';
    switch (error.keyword) {
      case 'required':
        return t.validation.required;
      case 'maxLength':
        return t.validation.tooLong;
      case 'minLength':
        return t.validation.tooShort;
      case 'maxItems':
        return t.validation.tooMany(field);
      case 'pattern':
        return String(params.pattern).includes('u0000') ? t.validation.controlCharacters(field) : t.validation.invalidValue(field);
      default:
        return t.validation.invalidValue(field);
    }
  });
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
