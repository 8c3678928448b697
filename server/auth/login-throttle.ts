import type { Database } from '../db/connect';
import { apiTokenPrefix } from './api-tokens';

/**
 * Sign-in attempts counted in the database, so every API process sees the same counts. An attempt
 * is reserved (counted) before the password is checked, so parallel guesses cannot slip past the
 * limit while the slow hash runs; a successful sign-in gives its reservation back.
 *
 * Keys, each in a fixed 15-minute window from its first attempt:
 * - a login from one address: 5 failures, so a guesser locks only their own address;
 * - one address across logins: 20 failures;
 * - a login from every address: 20 failures, then each further attempt waits twice as long as
 *   the one before (1 s, 2 s, 4 s … after the window's start) until the window ends. Only a guesser
 *   spread over many addresses reaches it; it slows every browser without the login's device
 *   cookie, and shuts out none;
 * - a device (a browser holding the device cookie of the login, device-cookie.ts): 5 failures.
 *   A device is counted on its own key only, so no failure it did not make (guessers behind the
 *   same reverse proxy, or spread over the world) limits it. A device past its limit is an
 *   unknown browser again.
 * - guessed API tokens, on keys of their own (tokenThrottle below);
 * - a user's alert test sends, on a key of their own (alertTestThrottle below).
 *
 * The windows go by the server's Clock, not the database's, so tests move them without waiting.
 * A refused attempt writes nothing, and every counted one purges the windows that have ended, so
 * one address holds at most 2 rows per counted attempt, 41 in all, however long it keeps trying.
 */
export const loginThrottle = {
  windowSeconds: 15 * 60,
  maxFailuresPerLogin: 5,
  maxFailuresPerIp: 20,
  undelayedFailuresPerLoginEverywhere: 20,
  maxFailuresPerDevice: 5,
};

export const normalLogin = (login: string) => login.trim().toLowerCase();

/** Who tries to sign in: the login typed, the client's address, and the device cookie's nonce when it holds one for that login. */
export interface SignInSource {
  login: string;
  ip: string;
  device: string | null;
}

/** A key's rule: refused at `limit` failures in its window, or, with `growingDelay`, slowed from there on. */
interface Key {
  key: string;
  limit: number;
  growingDelay?: boolean;
}

/** A counted attempt: the keys a success clears, and those it gives the attempt back on. */
export interface Reservation {
  refused: false;
  cleared: string[];
  givenBack: string[];
}

/** A refused attempt, and when the browser may try again (the answer's Retry-After). */
export interface Refusal {
  refused: true;
  retryAfterSeconds: number;
}

function addressKeys(source: SignInSource): Key[] {
  const login = normalLogin(source.login);
  return [
    { key: `login-ip:${login}@${source.ip}`, limit: loginThrottle.maxFailuresPerLogin },
    { key: `ip:${source.ip}`, limit: loginThrottle.maxFailuresPerIp },
    { key: `login:${login}`, limit: loginThrottle.undelayedFailuresPerLoginEverywhere, growingDelay: true },
  ];
}

interface Count {
  failures: number;
  windowStartedAt: number;
}

/**
 * Milliseconds until `key` takes another attempt, given its count so far; 0 when it takes one now.
 * A delayed key at `limit + n` failures takes the next attempt 2^n seconds after its window
 * started, or when the window ends if that comes first.
 */
function waitFor(key: Key, count: Count | undefined, now: number): number {
  if (!count || count.failures < key.limit) return 0;
  const windowEnd = count.windowStartedAt + loginThrottle.windowSeconds * 1000;
  const allowedAt = key.growingDelay ? Math.min(windowEnd, count.windowStartedAt + 1000 * 2 ** (count.failures - key.limit)) : windowEnd;
  return Math.max(0, allowedAt - now);
}

function refusal(waitMs: number): Refusal {
  return { refused: true, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
}

/** The counts of `keys` whose windows have not ended at `now`. */
async function countsOf(db: Database, keys: Key[], now: number): Promise<Map<string, Count>> {
  const { rows } = await db.sql(
    `SELECT key, failures, window_started_at FROM login_failures
      WHERE key = ANY($1) AND window_started_at > $3::timestamptz - make_interval(secs => $2)`,
    [keys.map((k) => k.key), loginThrottle.windowSeconds, new Date(now).toISOString()],
  );
  return new Map(
    rows.map((row) => [
      row.key as string,
      { failures: row.failures as number, windowStartedAt: new Date(row.window_started_at).getTime() },
    ]),
  );
}

const longestWait = (keys: Key[], counts: Map<string, Count>, now: number) =>
  Math.max(0, ...keys.map((k) => waitFor(k, counts.get(k.key), now)));

class Refused extends Error {
  constructor(readonly waitMs: number) {
    super('refused');
  }
}

/**
 * Counts one attempt on every key, or refuses it when a parallel attempt took a key's last place
 * since its counts were read: the count runs in a transaction that then rolls back, so a refused
 * attempt leaves no row behind. Answers each key's count before this attempt. Then purges the
 * windows that have ended.
 */
async function countAttempt(db: Database, keys: Key[], now: number): Promise<Map<string, Count> | Refusal> {
  const at = new Date(now).toISOString();
  try {
    const before = await db.transaction(async (sql) => {
      const counted = await sql(
        // In key order, so two attempts on the same keys take their row locks in the same order.
        `INSERT INTO login_failures (key, failures, window_started_at)
           SELECT key, 1, $3::timestamptz FROM unnest($1::text[]) AS key ORDER BY key
         ON CONFLICT (key) DO UPDATE SET
           failures = CASE WHEN login_failures.window_started_at > $3::timestamptz - make_interval(secs => $2)
                           THEN login_failures.failures + 1 ELSE 1 END,
           window_started_at = CASE WHEN login_failures.window_started_at > $3::timestamptz - make_interval(secs => $2)
                                    THEN login_failures.window_started_at ELSE $3::timestamptz END
         RETURNING key, failures, window_started_at`,
        [keys.map((k) => k.key), loginThrottle.windowSeconds, at],
      );
      const counts = new Map<string, Count>();
      for (const row of counted.rows) {
        const key = keys.find((k) => k.key === row.key)!;
        // A parallel attempt may have counted since the read: this one is judged on the count before it.
        const before = { failures: (row.failures as number) - 1, windowStartedAt: new Date(row.window_started_at).getTime() };
        const wait = waitFor(key, before, now);
        if (wait > 0) throw new Refused(wait);
        counts.set(key.key, before);
      }
      return counts;
    });
    await purgeEndedWindows(db, at);
    return before;
  } catch (error) {
    if (error instanceof Refused) return refusal(error.waitMs);
    throw error;
  }
}

/**
 * Counts one attempt, or refuses it when a key is at its limit. Refusing only reads, and never
 * leaves a row behind (countAttempt). `now` is the server clock's time in milliseconds.
 */
export async function reserveLoginAttempt(db: Database, source: SignInSource, now: number): Promise<Reservation | Refusal> {
  const deviceKey: Key | null = source.device ? { key: `device:${source.device}`, limit: loginThrottle.maxFailuresPerDevice } : null;
  const address = addressKeys(source);
  const counts = await countsOf(db, [...(deviceKey ? [deviceKey] : []), ...address], now);
  const trusted = deviceKey !== null && waitFor(deviceKey, counts.get(deviceKey.key), now) === 0;
  const keys = trusted ? [deviceKey] : address;
  const waitMs = longestWait(keys, counts, now);
  if (waitMs > 0) return refusal(waitMs);

  const before = await countAttempt(db, keys, now);
  if ('refused' in before) return before;
  const sprayDetected = keys.some((k) => k.growingDelay && before.get(k.key)?.failures === k.limit - 1);
  if (sprayDetected) await tellAdminsOfSpray(db, source.login);
  if (trusted) return { refused: false, cleared: [deviceKey.key], givenBack: [] };
  // The address's and the login's counts from everywhere only lose this attempt: the right
  // password from one browser says nothing of the other addresses' failures.
  return { refused: false, cleared: [address[0]!.key], givenBack: [address[1]!.key, address[2]!.key] };
}

/**
 * SKIP LOCKED: rows another attempt is counting right now are left for the next purge, so the
 * purge never waits on, nor deadlocks with, a sign-in.
 */
async function purgeEndedWindows(db: Database, at: string): Promise<void> {
  await db.sql(
    `DELETE FROM login_failures WHERE key IN (
       SELECT key FROM login_failures WHERE window_started_at <= $2::timestamptz - make_interval(secs => $1) FOR UPDATE SKIP LOCKED)`,
    [loginThrottle.windowSeconds, at],
  );
}

/**
 * Guessed API tokens: a `sho_` token that names no token ever issued. A revoked or expired token
 * is no guess, so an old script is never counted. Each guess is counted, with the sign-in's
 * window, on keys of their own (a script's mistyped token locks no one out of signing in):
 * - its address: 20;
 * - its first characters: 20, for whoever knows the start of a token (a screenshot, a log line
 *   cut short) and tries its ends from many addresses;
 * - every guess from everywhere: 200, so addresses rotated or forged (X-Forwarded-For behind
 *   `TRUST_PROXY=1`) do not remove the limit. It also bounds the table: a window counts at most
 *   200 guesses, each writing at most one address row and one prefix row, and a guess past it
 *   only reads.
 * A token that has been used successfully before skips these limits (guards.ts), so guessers
 * never lock out a working script; the limits hold up only guesses and a new token's first use.
 */
export const tokenThrottle = {
  maxGuessesPerIp: 20,
  maxGuessesPerPrefix: 20,
  maxGuessesEverywhere: 200,
  /** Characters of the secret after `sho_` that make a guess's prefix key: 48 of its 256 bits. */
  prefixLength: 8,
};

/** A guess's first characters; any outside a token's base64url alphabet read as `?`, as a header may carry bytes a key cannot. */
const prefixOf = (token: string) =>
  token.slice(apiTokenPrefix.length, apiTokenPrefix.length + tokenThrottle.prefixLength).replace(/[^\w-]/g, '?');

const tokenGuessKeys = (ip: string, token: string): Key[] => [
  { key: `token-ip:${ip}`, limit: tokenThrottle.maxGuessesPerIp },
  { key: `token-prefix:${prefixOf(token)}`, limit: tokenThrottle.maxGuessesPerPrefix },
  { key: 'token-all', limit: tokenThrottle.maxGuessesEverywhere },
];

/** Refuses a token from an address, of a prefix, or at a time past its guessing limit; only reads. */
export async function refuseTokenGuesser(db: Database, ip: string, token: string, now: number): Promise<Refusal | null> {
  const keys = tokenGuessKeys(ip, token);
  const waitMs = longestWait(keys, await countsOf(db, keys, now), now);
  return waitMs > 0 ? refusal(waitMs) : null;
}

/** Counts one guessed token, or refuses it when past a limit (then nothing is written). */
export async function countTokenGuess(db: Database, ip: string, token: string, now: number): Promise<Refusal | null> {
  const refused = await refuseTokenGuesser(db, ip, token, now);
  if (refused) return refused;
  const counted = await countAttempt(db, tokenGuessKeys(ip, token), now);
  return 'refused' in counted ? counted : null;
}

/**
 * 'Надіслати тестове' for a webhook or for Telegram makes the server call out at once, on the
 * user's word: to any address they saved, or through the installation's bot, whose budget at
 * Telegram every user shares (Bot API FAQ, "My bot is hitting limits": about 30 messages a second).
 * So a user's tests, webhook and Telegram together, are counted in the sign-in's window: 10, far
 * more than checking a new target takes, too few to make the server a stream of requests.
 */
export const alertTestThrottle = { maxPerUser: 10 };

/** Counts one test send of the user's, or refuses it when past the limit (then nothing is written). */
export async function countAlertTest(db: Database, userId: number, now: number): Promise<Refusal | null> {
  const keys: Key[] = [{ key: `alert-test:${userId}`, limit: alertTestThrottle.maxPerUser }];
  const waitMs = longestWait(keys, await countsOf(db, keys, now), now);
  if (waitMs > 0) return refusal(waitMs);
  const counted = await countAttempt(db, keys, now);
  return 'refused' in counted ? counted : null;
}

/**
 * The bell of every admin tells that a login of this server is being guessed from many addresses.
 * Once until they read it, however long the spray goes on; a login that does not exist is no news.
 */
async function tellAdminsOfSpray(db: Database, login: string): Promise<void> {
  await db.sql(
    `SELECT add_notification(admins.id, 'sign_in_spray', NULL, NULL, NULL, targets.login)
       FROM users AS admins, users AS targets
      WHERE admins.role = 'admin' AND lower(targets.login) = $1
        AND NOT EXISTS (SELECT 1 FROM notifications
                         WHERE user_id = admins.id AND kind = 'sign_in_spray' AND message = targets.login AND read_at IS NULL)`,
    [normalLogin(login)],
  );
}

/** A successful sign-in: the device's count, or the login's from this address, starts again; the wider counts get the attempt back. */
export async function releaseLoginAttempt(db: Database, reservation: Reservation): Promise<void> {
  await db.sql('DELETE FROM login_failures WHERE key = ANY($1)', [reservation.cleared]);
  if (reservation.givenBack.length > 0) {
    await db.sql('UPDATE login_failures SET failures = greatest(failures - 1, 0) WHERE key = ANY($1)', [reservation.givenBack]);
  }
}
