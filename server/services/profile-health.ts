import type { HealthReason, HealthState, ProfileHealth } from '../../src/lib/contract';
import type { Database, RunSql } from '../db/connect';
import type { Platform } from '../platforms/types';

/** What one check found on one platform of a profile. */
export interface HealthFinding {
  platform: Platform;
  state: HealthState;
  reason: HealthReason | null;
}

/** A post due within this long makes a profile's failure worth telling now, and its checks hourly. */
export const healthSoonMs = 24 * 3600_000;

/** The reasons that are the proxy's: the same for every platform of the profile, told once for all of them. */
const proxyReasons: HealthReason[] = ['proxy_unreachable', 'proxy_failed', 'proxy_auth', 'proxy_refused'];

export interface UnhealthyProfile {
  userId: number;
  accountId: number;
  /** The platforms that turned 'down' with a post due within a day, and why. */
  platforms: { platform: Platform; reason: HealthReason }[];
  /** When the soonest of those posts is due (ISO). */
  dueAt: string;
}

/**
 * Tells the owner that a profile stopped working before a post of it is due: in the bell, one
 * entry for a proxy's failure (every platform behind it fails alike), one per platform for the
 * platforms' own. Called once per spell of 'down' (recordHealth). Every other channel that tells
 * of an unhealthy profile belongs here too.
 */
export async function notifyUnhealthy(run: RunSql, profile: UnhealthyProfile): Promise<void> {
  const proxy = profile.platforms.find((entry) => proxyReasons.includes(entry.reason));
  const entries = proxy
    ? [{ platform: null, reason: proxy.reason }]
    : profile.platforms.map((entry) => ({ platform: entry.platform as Platform | null, reason: entry.reason }));
  for (const entry of entries) {
    await run(`SELECT add_notification($1, 'profile_unhealthy', NULL, $2, $3, NULL, NULL, NULL, $4)`, [
      profile.userId,
      profile.accountId,
      entry.platform,
      entry.reason,
    ]);
  }
}

/**
 * Stores what a check found at `now` (the platforms it could not check keep their last state), drops
 * the platforms switched off since, and stamps the profile's check. A platform that is 'down' while
 * the profile has a post on it due within a day tells its owner (notifyUnhealthy), once until it is
 * no longer 'down': the row's notified_at remembers it, and any other state clears it.
 */
export async function recordHealth(
  db: Database,
  account: { id: number; userId: number },
  active: Platform[],
  findings: HealthFinding[],
  now: number,
): Promise<UnhealthyProfile | null> {
  const at = new Date(now);
  return db.transaction(async (run) => {
    await run(`UPDATE accounts SET health_checked_at = $2 WHERE id = $1`, [account.id, at]);
    await run(`DELETE FROM profile_health WHERE account_id = $1 AND NOT (platform = ANY($2::text[]))`, [account.id, active]);
    for (const finding of findings) {
      await run(
        `INSERT INTO profile_health (account_id, platform, state, reason, checked_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (account_id, platform) DO UPDATE SET state = EXCLUDED.state, reason = EXCLUDED.reason, checked_at = EXCLUDED.checked_at,
           notified_at = CASE WHEN EXCLUDED.state = 'down' THEN profile_health.notified_at END`,
        [account.id, finding.platform, finding.state, finding.reason, at],
      );
    }
    const { rows } = await run(
      `WITH due AS (SELECT p.platform, min(p.scheduled_at) AS due_at FROM video_posts AS p
                     WHERE p.account_id = $1 AND p.status = 'pending' AND p.scheduled_at < $2::timestamptz + make_interval(secs => $3::float8)
                     GROUP BY p.platform)
       UPDATE profile_health AS h SET notified_at = $2 FROM due
        WHERE h.account_id = $1 AND h.platform = due.platform AND h.state = 'down' AND h.notified_at IS NULL
       RETURNING h.platform, h.reason, due.due_at`,
      [account.id, at, healthSoonMs / 1000],
    );
    if (rows.length === 0) return null;
    const unhealthy: UnhealthyProfile = {
      userId: account.userId,
      accountId: account.id,
      platforms: platformOrder.flatMap((platform) =>
        rows.filter((row) => row.platform === platform).map((row) => ({ platform, reason: row.reason as HealthReason })),
      ),
      dueAt: new Date(Math.min(...rows.map((row) => new Date(row.due_at).getTime()))).toISOString(),
    };
    await notifyUnhealthy(run, unhealthy);
    return unhealthy;
  });
}

const platformOrder: Platform[] = ['youtube', 'tiktok', 'instagram'];

/** The rows of profile_health as a profile's summary carries them (summaryColumns), keyed by platform. */
export type StoredHealth = Partial<Record<Platform, { state: HealthState; reason: HealthReason | null; checkedAt: string }>>;

/** A profile's health for the platforms switched on: a platform switched off keeps its row until the next check, but shows none. */
export function healthOf(stored: StoredHealth, active: Record<Platform, boolean>): ProfileHealth {
  return Object.fromEntries(
    platformOrder.flatMap((platform) => {
      const entry = stored[platform];
      return entry && active[platform] ? [[platform, { ...entry, checkedAt: new Date(entry.checkedAt).toISOString() }]] : [];
    }),
  );
}

/** SQL: whether profile `a` has a platform switched on whose last check was not 'ok' (the list's 'Проблемні'). */
export const hasHealthProblem = `EXISTS (SELECT 1 FROM profile_health AS h WHERE h.account_id = a.id AND h.state <> 'ok'
  AND CASE h.platform WHEN 'youtube' THEN a.is_active_youtube WHEN 'tiktok' THEN a.is_active_tiktok ELSE a.is_active_instagram END)`;
