import type { Struct } from 'superstruct';
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
