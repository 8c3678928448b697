import { eq } from 'drizzle-orm';
import type { Database, RunSql } from '../db/connect';
import { users } from '../db/schema';

/** The users table as the sign-in reads it and user management and a password change write it; a request's user is read in guards.ts. */

export type UserRow = typeof users.$inferSelect;

/** The user signing in with `login`, as typed but trimmed; undefined when there is none. */
export async function userByLogin(db: Database, login: string): Promise<UserRow | undefined> {
  const [user] = await db.orm.select().from(users).where(eq(users.login, login));
  return user;
}

export async function passwordHashOf(db: Database, id: number): Promise<string | undefined> {
  const [stored] = await db.orm.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, id));
  return stored?.passwordHash;
}

/** A new user (never an admin), the id of their row; a login taken answers the database's unique violation. */
export async function insertUser(db: Database, login: string, passwordHash: string): Promise<number> {
  const [{ id }] = await db.orm.insert(users).values({ login, passwordHash, role: 'user' }).returning({ id: users.id });
  return id;
}

/** A new login alone, the admin's own; a login taken answers the database's unique violation. */
export async function setLogin(db: Database, id: number, login: string): Promise<void> {
  await db.orm.update(users).set({ login }).where(eq(users.id, id));
}

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
