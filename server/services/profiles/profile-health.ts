import { platformIds } from '../../../src/lib/platforms';
import type { ConnectionKind } from '../../../src/lib/contract';
import { t } from '../../messages';
import type { Database, RunSql } from '../../db/connect';
import { recordConnection, type ConnectionFinding } from '../../platforms/connections';
import type { Platform } from '../../platforms/types';
import { accountOption, type AccountRow } from './account-views';
import { raiseAlert } from '../../alerts/buckets';

/** What one check found on one platform of a profile. */
export interface HealthFinding extends ConnectionFinding {
  platform: Platform;
}

/** A post due within this long makes a profile's failure worth telling now, and its checks hourly. */
export const healthSoonMs = 24 * 3600_000;

/** The reasons that are the proxy's: the same for every platform of the profile, told once for all of them. */
const proxyReasons: ConnectionKind[] = ['proxy_unreachable', 'proxy_failed', 'proxy_auth', 'proxy_refused'];

export interface UnhealthyProfile {
  userId: number;
  accountId: number;
  /** The profile as the lists name it ('#3 label'). */
  profile: string;
  /** The platforms that turned 'down' with a post due within a day, and why. */
  platforms: { platform: Platform; kind: ConnectionKind }[];
  /** When the soonest of those posts is due (ISO). */
  dueAt: string;
}

/**
 * Tells the owner that a profile stopped working before a post of it is due: one notice for a
 * proxy's failure (every platform behind it fails alike), one per platform for the platforms' own,
 * each in the bell and as a 'profile.unhealthy' alert (Telegram and webhooks, alerts/buckets.ts,
 * which keeps it only for an owner who asked for it). Called once per spell of 'down' (recordHealth),
 * in its transaction: told exactly when it is stored.
 */
export async function notifyUnhealthy(run: RunSql, profile: UnhealthyProfile, at: Date): Promise<void> {
  const proxy = profile.platforms.find((entry) => proxyReasons.includes(entry.kind));
  const entries = proxy
    ? [{ platform: null, kind: proxy.kind }]
    : profile.platforms.map((entry) => ({ platform: entry.platform as Platform | null, kind: entry.kind }));
  for (const entry of entries) {
    await run(`SELECT add_notification($1, 'profile_unhealthy', NULL, $2, $3, NULL, NULL, NULL, $4)`, [
      profile.userId,
      profile.accountId,
      entry.platform,
      entry.kind,
    ]);
    await raiseAlert(run, {
      userId: profile.userId,
      event: 'profile.unhealthy',
      data: {
        accountId: profile.accountId,
        profile: profile.profile,
        platform: entry.platform,
        state: 'down',
        reason: t.health.kinds[entry.kind],
      },
      at,
    });
  }
}

/**
 * Stores what a check found at `now` as each connection's state (recordConnection; the platforms it
 * could not check keep their last state) and stamps the profile's check. A platform that is 'down'
 * while the profile has a post on it due within a day tells its owner (notifyUnhealthy), once until
 * it is no longer 'down': the row's notified_at remembers it, and any other state clears it.
 */
export async function recordHealth(
  db: Database,
  account: Pick<AccountRow, 'id' | 'userId' | 'comments' | 'youtubeLogin' | 'instagramLogin'>,
  active: Platform[],
  findings: HealthFinding[],
  now: number,
): Promise<UnhealthyProfile | null> {
  const at = new Date(now);
  return db.transaction(async (run) => {
    await run(`UPDATE accounts SET health_checked_at = $2 WHERE id = $1`, [account.id, at]);
    for (const { platform, ...finding } of findings) {
      await recordConnection(run, { accountId: account.id, platform, ...finding, source: 'health', at });
    }
    const { rows } = await run(
      `WITH due AS (SELECT p.platform, min(p.scheduled_at) AS due_at FROM video_posts AS p
                     WHERE p.account_id = $1 AND p.status = 'pending' AND p.scheduled_at < $2::timestamptz + make_interval(secs => $3::float8)
                     GROUP BY p.platform)
       UPDATE connection_states AS h SET notified_at = $2 FROM due
        WHERE h.account_id = $1 AND h.platform = due.platform AND h.platform = ANY($4::text[]) AND h.state = 'down' AND h.notified_at IS NULL
       RETURNING h.platform, h.kind, due.due_at`,
      [account.id, at, healthSoonMs / 1000, active],
    );
    if (rows.length === 0) return null;
    const unhealthy: UnhealthyProfile = {
      userId: account.userId,
      accountId: account.id,
      profile: accountOption(account).title,
      platforms: platformIds.flatMap((platform) =>
        rows.filter((row) => row.platform === platform).map((row) => ({ platform, kind: row.kind as ConnectionKind })),
      ),
      dueAt: new Date(Math.min(...rows.map((row) => new Date(row.due_at).getTime()))).toISOString(),
    };
    await notifyUnhealthy(run, unhealthy, at);
    return unhealthy;
  });
}

/** How long a check may hold its profile (the job's expiry): a claim left by a process that died mid-check lapses then. */
export const healthCheckClaimMs = 5 * 60_000;

export type HealthCheckClaim =
  | { kind: 'claimed'; at: Date }
  /** Another check of the profile is under way. */
  | { kind: 'running' }
  /** The profile's last check ended less than the gap asked for ago. */
  | { kind: 'recent'; retryAfterSeconds: number }
  | { kind: 'missing' };

/**
 * Takes profile `accountId` for one check at `now` (the app's clock), so that no two checks of it
 * run at once, whoever asks: refused while another check holds it and, with `minGapMs`, while its
 * last check ended less than that long ago. The claim is given back by releaseHealthCheck.
 */
export async function claimHealthCheck(db: Database, accountId: number, now: number, minGapMs?: number): Promise<HealthCheckClaim> {
  const at = new Date(now);
  const gapSeconds = minGapMs === undefined ? null : minGapMs / 1000;
  const { rows } = await db.sql(
    `UPDATE accounts SET health_check_started_at = $2
      WHERE id = $1
        AND (health_check_started_at IS NULL OR health_check_started_at <= $2::timestamptz - make_interval(secs => $3::float8))
        AND ($4::float8 IS NULL OR health_checked_at IS NULL OR health_checked_at <= $2::timestamptz - make_interval(secs => $4::float8))
      RETURNING id`,
    [accountId, at, healthCheckClaimMs / 1000, gapSeconds],
  );
  if (rows.length > 0) return { kind: 'claimed', at };
  // Why it was refused, read after: a check that ended in between reads as 'recent', which is so.
  const { rows: found } = await db.sql(`SELECT health_check_started_at, health_checked_at FROM accounts WHERE id = $1`, [accountId]);
  const row = found[0];
  if (!row) return { kind: 'missing' };
  const started = row.health_check_started_at === null ? null : new Date(row.health_check_started_at).getTime();
  if (started !== null && started > now - healthCheckClaimMs) return { kind: 'running' };
  const endedAt = row.health_checked_at === null ? now : new Date(row.health_checked_at).getTime();
  return { kind: 'recent', retryAfterSeconds: Math.max(1, Math.ceil((endedAt + (minGapMs ?? 0) - now) / 1000)) };
}

/** Gives back the claim taken `at`; one taken over after it lapsed is the other check's and stays. */
export async function releaseHealthCheck(db: Database, accountId: number, at: Date): Promise<void> {
  await db.sql(`UPDATE accounts SET health_check_started_at = NULL WHERE id = $1 AND health_check_started_at = $2`, [accountId, at]);
}
