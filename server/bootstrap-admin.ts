import crypto from 'node:crypto';
import type { Database } from './db/connect';
import { hashPassword } from './auth/passwords';

export type AdminBootstrap = { created: false } | { created: true; login: string; generatedPassword: string | undefined };

/**
 * On the first start (no users at all) creates the admin from ADMIN_LOGIN / ADMIN_PASSWORD.
 * Without a password a random one is generated and returned once for the console; there is
 * never a fixed default.
 */
export async function bootstrapAdmin(db: Database, login: string, password: string | undefined): Promise<AdminBootstrap> {
  const generatedPassword = password ? undefined : crypto.randomBytes(12).toString('base64url');
  const passwordHash = await hashPassword(password ?? generatedPassword!);
  const { rows } = await db.sql(
    `INSERT INTO users (login, password_hash, role)
     SELECT $1, $2, 'admin' WHERE NOT EXISTS (SELECT 1 FROM users)
     RETURNING id`,
    [login, passwordHash],
  );
  return rows.length > 0 ? { created: true, login, generatedPassword } : { created: false };
}
