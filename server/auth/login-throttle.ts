import type { Database } from '../db/connect';

/**
 * Sign-in attempts counted in the database, so every API process sees the same counts. An attempt
 * is reserved (counted) before the password is checked, so parallel guesses cannot slip past the
 * limit while the slow hash runs; a successful sign-in gives its reservation back.
 *
 * Keys, each in a fixed 15-minute window from its first attempt:
 * - a login from one address: 5 failures, so a guesser locks only their own address;
 * - one address across logins: 20 failures;
 * - a login from every address: 100 failures, which only a guesser spread over many addresses
 *   reaches; the right user on another address keeps signing in below that;
 * - a device (a browser holding the device cookie of the login, device-cookie.ts): 5 failures.
 *   A device is counted instead of its address, so guessers sharing the address (everyone behind
 *   one reverse proxy) cannot lock it out. A device past its limit is an unknown browser again.
 *
 * A refused attempt writes nothing, and every counted one purges the windows that have ended, so
 * one address holds at most 2 rows per counted attempt, 41 in all, however long it keeps trying.
 */
export const loginThrottle = {
  windowSeconds: 15 * 60,
  maxFailuresPerLogin: 5,
  maxFailuresPerIp: 20,
  maxFailuresPerLoginEverywhere: 100,
  maxFailuresPerDevice: 5,
};

export const normalLogin = (login: string) => login.trim().toLowerCase();

/** Who tries to sign in: the login typed, the client's address, and the device cookie's nonce when it holds one for that login. */
export interface SignInSource {
  login: string;
  ip: string;
  device: string | null;
}

interface Key {
  key: string;
  limit: number;
}

/** A counted attempt: the keys a success clears, and the address key it gives the attempt back on. */
export interface Reservation {
  cleared: string[];
  addressKey: string | null;
}

function deviceKeys(source: SignInSource, device: string): Key[] {
  return [
    { key: `device:${device}`, limit: loginThrottle.maxFailuresPerDevice },
    { key: `login:${normalLogin(source.login)}`, limit: loginThrottle.maxFailuresPerLoginEverywhere },
  ];
}

function addressKeys(source: SignInSource): Key[] {
  const login = normalLogin(source.login);
  return [
    { key: `login-ip:${login}@${source.ip}`, limit: loginThrottle.maxFailuresPerLogin },
    { key: `ip:${source.ip}`, limit: loginThrottle.maxFailuresPerIp },
    { key: `login:${login}`, limit: loginThrottle.maxFailuresPerLoginEverywhere },
  ];
}

class Refused extends Error {}

/**
 * Counts one attempt, or refuses it (null) when a key is at its limit. Refusing only reads; the
 * count itself happens in a transaction that rolls back when a parallel attempt took the last
 * place, so a refused attempt never leaves a row behind.
 */
export async function reserveLoginAttempt(db: Database, source: SignInSource): Promise<Reservation | null> {
  const device = source.device ? deviceKeys(source, source.device) : [];
  const address = addressKeys(source);
  const { rows } = await db.sql(
    `SELECT key, failures FROM login_failures
      WHERE key = ANY($1) AND window_started_at > now() - make_interval(secs => $2)`,
    [[...device, ...address].map((k) => k.key), loginThrottle.windowSeconds],
  );
  const failures = new Map(rows.map((row) => [row.key as string, row.failures as number]));
  const atLimit = (k: Key) => (failures.get(k.key) ?? 0) >= k.limit;
  const trusted = device.length > 0 && !atLimit(device[0]!);
  const keys = trusted ? device : address;
  if (keys.some(atLimit)) return null;

  try {
    await db.transaction(async (sql) => {
      const counted = await sql(
        // In key order, so two attempts on the same keys take their row locks in the same order.
        `INSERT INTO login_failures (key, failures, window_started_at)
           SELECT key, 1, now() FROM unnest($1::text[]) AS key ORDER BY key
         ON CONFLICT (key) DO UPDATE SET
           failures = CASE WHEN login_failures.window_started_at > now() - make_interval(secs => $2)
                           THEN login_failures.failures + 1 ELSE 1 END,
           window_started_at = CASE WHEN login_failures.window_started_at > now() - make_interval(secs => $2)
                                    THEN login_failures.window_started_at ELSE now() END
         RETURNING key, failures`,
        [keys.map((k) => k.key), loginThrottle.windowSeconds],
      );
      if (counted.rows.some((row) => row.failures > keys.find((k) => k.key === row.key)!.limit)) throw new Refused();
    });
  } catch (error) {
    if (error instanceof Refused) return null;
    throw error;
  }
  // SKIP LOCKED: rows another attempt is counting right now are left for the next purge, so the
  // purge never waits on, nor deadlocks with, a sign-in.
  await db.sql(
    `DELETE FROM login_failures WHERE key IN (
       SELECT key FROM login_failures WHERE window_started_at <= now() - make_interval(secs => $1) FOR UPDATE SKIP LOCKED)`,
    [loginThrottle.windowSeconds],
  );
  const addressKey = trusted ? null : `ip:${source.ip}`;
  return { cleared: keys.map((k) => k.key).filter((key) => key !== addressKey), addressKey };
}

/** A successful sign-in: the login's and the device's counts start again, and the address gets its attempt back. */
export async function releaseLoginAttempt(db: Database, reservation: Reservation): Promise<void> {
  await db.sql('DELETE FROM login_failures WHERE key = ANY($1)', [reservation.cleared]);
  if (reservation.addressKey) {
    await db.sql('UPDATE login_failures SET failures = greatest(failures - 1, 0) WHERE key = $1', [reservation.addressKey]);
  }
}
