import type { Database } from '../db/connect';

/**
 * Login attempts counted in the database, so every API process sees the same counts. An attempt
 * is reserved (counted) before the password is checked, so parallel guesses cannot slip past the
 * limit while the slow hash runs; a successful login gives its reservation back.
 *
 * Keys, each in a fixed 15-minute window from its first attempt:
 * - a login from one address: 5 failures, so a guesser locks only their own address;
 * - one address across logins: 20 failures;
 * - a login from every address: 100 failures, which only a guesser spread over many addresses
 *   reaches; the right user on another address keeps logging in below that.
 */
export const loginThrottle = {
  windowSeconds: 15 * 60,
  maxFailuresPerLogin: 5,
  maxFailuresPerIp: 20,
  maxFailuresPerLoginEverywhere: 100,
};

const normalLogin = (login: string) => login.trim().toLowerCase();

function keysFor(login: string, ip: string) {
  return [
    { key: `login-ip:${normalLogin(login)}@${ip}`, limit: loginThrottle.maxFailuresPerLogin },
    { key: `ip:${ip}`, limit: loginThrottle.maxFailuresPerIp },
    { key: `login:${normalLogin(login)}`, limit: loginThrottle.maxFailuresPerLoginEverywhere },
  ];
}

/**
 * Counts one attempt on every key in one statement and says whether any key is past its limit;
 * a refused attempt is never checked against the password.
 */
export async function reserveLoginAttempt(db: Database, login: string, ip: string): Promise<boolean> {
  const keys = keysFor(login, ip);
  const { rows } = await db.sql(
    `INSERT INTO login_failures (key, failures, window_started_at)
       SELECT key, 1, now() FROM unnest($1::text[]) AS key
     ON CONFLICT (key) DO UPDATE SET
       failures = CASE WHEN login_failures.window_started_at > now() - make_interval(secs => $2)
                       THEN login_failures.failures + 1 ELSE 1 END,
       window_started_at = CASE WHEN login_failures.window_started_at > now() - make_interval(secs => $2)
                                THEN login_failures.window_started_at ELSE now() END
     RETURNING key, failures`,
    [keys.map((k) => k.key), loginThrottle.windowSeconds],
  );
  return rows.every((row) => row.failures <= keys.find((k) => k.key === row.key)!.limit);
}

/** A successful login: the login's counts start again, and the address gets its attempt back. */
export async function releaseLoginAttempt(db: Database, login: string, ip: string): Promise<void> {
  const [loginAtIp, atIp, everywhere] = keysFor(login, ip);
  await db.sql('DELETE FROM login_failures WHERE key = ANY($1)', [[loginAtIp!.key, everywhere!.key]]);
  await db.sql('UPDATE login_failures SET failures = greatest(failures - 1, 0) WHERE key = $1', [atIp!.key]);
}
