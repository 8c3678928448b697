import { eq } from 'drizzle-orm';
import type { Database, RunSql } from '../../db/connect';
import { accounts } from '../../db/schema';

/** A profile's own row (accounts) as the profile form writes it; its connections are written beside it (platforms/connections.ts). */

type ProfileColumns = typeof accounts.$inferInsert;

/** The id a new profile will have, taken before its row is written: every secret is encrypted bound to the id of its row. */
export async function newProfileId(db: Database): Promise<number> {
  const { rows } = await db.sql(`SELECT nextval(pg_get_serial_sequence('accounts', 'id')) AS id`, []);
  return Number(rows[0].id);
}

/** Writes a new profile's row in the save's transaction `run`. */
export async function insertProfile(db: Database, run: RunSql, columns: ProfileColumns): Promise<void> {
  const insert = db.orm.insert(accounts).values(columns).toSQL();
  await run(insert.sql, insert.params);
}

/**
 * Writes the profile's changed `columns` in the save's transaction `run`. A new YouTube OAuth
 * client (`youtubeClientChanged`) drops the YouTube connection: a refresh token belongs to one client.
 */
export async function updateProfile(
  db: Database,
  run: RunSql,
  id: number,
  columns: Partial<ProfileColumns>,
  youtubeClientChanged: boolean,
): Promise<void> {
  const update = db.orm.update(accounts).set(columns).where(eq(accounts.id, id)).toSQL();
  await run(update.sql, update.params);
  if (youtubeClientChanged) await run(`DELETE FROM account_connections WHERE account_id = $1 AND platform = 'youtube'`, [id]);
}

/** Deletes the profile's row and its connections; its posts stay, without it. Undefined when there was none. */
export async function deleteProfileRow(run: RunSql, id: number): Promise<{ id: number } | undefined> {
  const { rows } = await run(`DELETE FROM accounts WHERE id = $1 RETURNING id`, [id]);
  return rows[0];
}
