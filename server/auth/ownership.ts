import { eq, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { SessionUser } from '../../src/lib/contract';
import { t } from '../messages';
import { HttpError } from '../http-error';

/**
 * The rows a user may see: their own, or every row for an admin. Another user's row is then
 * simply not found (404), which does not even confirm that it exists.
 */
export function visibleTo(user: SessionUser, ownerColumn: PgColumn): SQL | undefined {
  const owner = visibleOwner(user);
  return owner === null ? undefined : eq(ownerColumn, owner);
}

/** The same rule for plain SQL: the owner whose rows the user may see, or null for an admin, who sees every row. */
export function visibleOwner(user: SessionUser): number | null {
  return user.role === 'admin' ? null : user.id;
}

export function found<T>(row: T | undefined): T {
  if (row === undefined) throw new HttpError(404, t.server.notFound);
  return row;
}
