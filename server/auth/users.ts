import type { Database, RunSql } from '../db/connect';

/** The users table as user management and a password change write it; the sign-in reads it in guards.ts. */

export async function userExists(db: Database, id: number): Promise<boolean> {
  const { rows } = await db.sql('SELECT 1 FROM users WHERE id = $1', [id]);
  return rows.length > 0;
}

/**
 * Another user's new login and password, set by an admin: a reset. Their sessions end (the trigger
 * of migration 0007) and their API tokens are revoked at `revokedAt` with it, in one transaction.
 */
export async function resetUser(db: Database, id: number, login: string, passwordHash: string, revokedAt: string): Promise<void> {
  await db.transaction(async (sql) => {
    await sql('UPDATE users SET login = $1, password_hash = $2 WHERE id = $3', [login, passwordHash, id]);
    await sql('UPDATE api_tokens SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL', [id, revokedAt]);
  });
}

/**
 * The user's own new password: every other session ends (the trigger of migration 0007), the one
 * it was changed in (`keptSession`) is named to the trigger and stays.
 */
export async function changeOwnPassword(db: Database, userId: number, passwordHash: string, keptSession: string | null): Promise<void> {
  await db.transaction(async (sql) => {
    await sql(`SELECT set_config('auth.kept_session', $1, true)`, [keptSession]);
    await sql('UPDATE users SET password_hash = $1 WHERE id = $2', [passwordHash, userId]);
  });
}

/** Deletes the user's row and, by their foreign keys, everything they own; undefined when there was none. */
export async function deleteUserRow(run: RunSql, id: number): Promise<{ id: number } | undefined> {
  const { rows } = await run(`DELETE FROM users WHERE id = $1 RETURNING id`, [id]);
  return rows[0];
}
