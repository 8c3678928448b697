import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/connect';
import type { ProfileCredentials } from '../platforms/profile-context';
import type { Platform } from '../platforms/types';
import type { Clock } from '../clock';

/** How often a post's figures are read, by its age, and what the reads may spend (server/jobs/sync-stats.ts). */
export interface StatsSyncSettings {
  /** STATS_FRESH_HOURS / STATS_FRESH_MINUTES: posts up to this old are read this often (48 h, every 15 min). */
  freshHours: number;
  freshEveryMinutes: number;
  /** STATS_RECENT_DAYS / STATS_RECENT_MINUTES: then up to this old, this often (30 days, every 6 h). */
  recentDays: number;
  recentEveryMinutes: number;
  /** STATS_OLD_MINUTES: older posts (once a day). */
  oldEveryMinutes: number;
  /** STATS_YOUTUBE_DAILY_UNITS: a Google project's units a Pacific day (YouTube Data API default 10,000). */
  youtubeDailyUnits: number;
  /** STATS_YOUTUBE_PUBLISH_RESERVE: units of those reads leave to publishing and edits. */
  youtubePublishReserve: number;
  /** STATS_TIKTOK_QUERIES_PER_MINUTE: video/query calls a token may make a minute (TikTok's default 600). */
  tiktokQueriesPerMinute: number;
  /** STATS_INSTAGRAM_CALLS_PER_HOUR: Graph calls an account's reads may make an hour (batch operations count one each). */
  instagramCallsPerHour: number;
}

/** Where a statistics read's units are counted, and how many reads may spend there in its period. */
export interface QuotaAccount {
  holder: string;
  period: string;
  limit: number;
  /** The moment on the app's clock the period was found for; it stamps the spending, which purgeQuotaLedger ages by. */
  at: Date;
}

// Made once: a formatter costs far more to build than to use, and every call to the platform asks for the day.
const pacificDate = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Los_Angeles' });

/** The calendar day in Pacific Time, where YouTube's daily quotas turn over ("Quota Calculator"). */
export function pacificDay(at: Date): string {
  return pacificDate.format(at);
}

/**
 * YouTube quota belongs to the Google project of the profile's OAuth client, so profiles sharing
 * a client share it; reads may bring the day's spending, publishing's included (recordQuota), up to
 * the day's units less the reserve kept for publishing still to come. TikTok limits
 * video/query per token and minute, Instagram calls per account and hour.
 */
export function quotaAccount(
  platform: Platform,
  account: Pick<ProfileCredentials, 'id' | 'youtubeClientId' | 'instagramUserId' | 'instagramLogin'>,
  settings: StatsSyncSettings,
  now: Date,
): QuotaAccount {
  const iso = now.toISOString();
  if (platform === 'youtube') {
    return {
      holder: `youtube:${account.youtubeClientId ?? `profile-${account.id}`}`,
      period: pacificDay(now),
      limit: settings.youtubeDailyUnits - settings.youtubePublishReserve,
      at: now,
    };
  }
  if (platform === 'tiktok')
    return { holder: `tiktok:profile-${account.id}`, period: iso.slice(0, 16), limit: settings.tiktokQueriesPerMinute, at: now };
  return {
    holder: `instagram:${account.instagramUserId ?? account.instagramLogin ?? `profile-${account.id}`}`,
    period: iso.slice(0, 13),
    limit: settings.instagramCallsPerHour,
    at: now,
  };
}

/**
 * Takes `units` from the account's period unless that would pass its limit; false when refused.
 * One statement, so reads racing on the same holder can never spend more than the limit together.
 */
export async function takeQuota(db: Database, quota: QuotaAccount, units: number): Promise<boolean> {
  const { rows } = await db.sql(
    `INSERT INTO stats_quota_ledger (holder, period, spent, updated_at) SELECT $1, $2, $3::integer, $5 WHERE $3::integer <= $4::integer
     ON CONFLICT (holder, period) DO UPDATE SET spent = stats_quota_ledger.spent + EXCLUDED.spent, updated_at = EXCLUDED.updated_at
       WHERE stats_quota_ledger.spent + EXCLUDED.spent <= $4::integer
     RETURNING spent`,
    [quota.holder, quota.period, units, quota.limit, quota.at],
  );
  return rows.length > 0;
}

/**
 * Records what publishing spent. Publishing comes first: it is never refused here (the platform
 * itself answers when the project's day is spent), and every unit it spent is one fewer for reads.
 */
export async function recordQuota(db: Database, quota: Pick<QuotaAccount, 'holder' | 'period' | 'at'>, units: number): Promise<void> {
  await db.sql(
    `INSERT INTO stats_quota_ledger (holder, period, spent, updated_at) VALUES ($1, $2, $3::integer, $4)
     ON CONFLICT (holder, period) DO UPDATE SET spent = stats_quota_ledger.spent + EXCLUDED.spent, updated_at = EXCLUDED.updated_at`,
    [quota.holder, quota.period, units, quota.at],
  );
}

/**
 * A connector context's `spendUnits` for a profile's YouTube calls outside the sync (publishing,
 * edits): each call's units go to its project's Pacific day. A ledger that cannot be written only
 * leaves reads a little more room; it never fails the publish.
 */
export function youtubeSpending(
  db: Database,
  account: Pick<ProfileCredentials, 'id' | 'youtubeClientId' | 'instagramUserId' | 'instagramLogin'>,
  settings: StatsSyncSettings,
  clock: Clock,
  log: FastifyBaseLogger,
): (units: number) => Promise<void> {
  return (units) =>
    recordQuota(db, quotaAccount('youtube', account, settings, new Date(clock.now())), units).catch((error) =>
      log.warn({ err: error, accountId: account.id }, 'YouTube units publishing spent not recorded'),
    );
}

/** Units spent so far in the account's period. */
export async function quotaSpent(db: Database, quota: Pick<QuotaAccount, 'holder' | 'period'>): Promise<number> {
  const { rows } = await db.sql(`SELECT spent FROM stats_quota_ledger WHERE holder = $1 AND period = $2`, [quota.holder, quota.period]);
  return rows[0]?.spent ?? 0;
}

/** Periods end within a day; two days before `now` of rows are kept for reading what a day spent. */
export async function purgeQuotaLedger(db: Database, now: Date): Promise<void> {
  await db.sql(`DELETE FROM stats_quota_ledger WHERE updated_at < $1::timestamptz - interval '2 days'`, [now]);
}
