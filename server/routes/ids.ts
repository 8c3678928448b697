import { t } from '../../src/lib/i18n';
import { HttpError } from '../http-error';

/** A numeric id from the path; anything else cannot name a row, so it is a 404 like a missing one. */
export function idParam(params: unknown, name = 'id'): number {
  const id = Number((params as Record<string, unknown>)[name]);
  if (!Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647) throw new HttpError(404, t.server.notFound);
  return id;
}
