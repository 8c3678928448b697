import type { Database } from '../db/connect';

/**
 * Counts failed logins per login and per client address in the database, so every API process
 * sees the same counts. A key that reaches its limit is refused until its window ends.
 */
export const loginThrottle = {
  windowSeconds: 15 * 60,
  maxFailuresPerLogin: 5,
  maxFailuresPerIp: 20,
};

function keysFor(login: string, ip: string) {
  return [
    { key: `login:${login.trim().toLowerCase()}`, limit: loginThrottle.maxFailuresPerLogin },
    { key: `ip:${ip}`, limit: loginThrottle.maxFailuresPerIp },
  ];
}

export async function isLoginBlocked(db: Database, login: string, ip: string): Promise<boolean> {
  const keys = keysFor(login, ip);
  const { rows } = await db.sql(
    `SELECT key, failures FROM login_failures
      WHERE key = ANY($1) AND window_started_at > now() - make_interval(secs => $2)`,
    [keys.map((k) => k.key), loginThrottle.windowSeconds],
  );
  return rows.some((row) => row.failures >= keys.find((k) => k.key === row.key)!.limit);
}

export async function recordLoginFailure(db: Database, login: string, ip: string): Promise<void> {
  for (const { key } of keysFor(login, ip)) {
    await db.sql(
      `INSERT INTO login_failures (key, failures, window_started_at) VALUES ($1, 1, now())
       ON CONFLICT (key) DO UPDATE SET
         failures = CASE WHEN login_failures.window_started_at > now() - make_interval(secs => $2)
                         THEN login_failures.failures + 1 ELSE 1 END,
         window_started_at = CASE WHEN login_failures.window_started_at > now() - make_interval(secs => $2)
                                  THEN login_failures.window_started_at ELSE now() END`,
      [key, loginThrottle.windowSeconds],
    );
  }
}

export async function clearLoginFailures(db: Database, login: string): Promise<void> {
  await db.sql('DELETE FROM login_failures WHERE key = $1', [keysFor(login, '')[0].key]);
}
