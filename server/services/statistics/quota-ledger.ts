import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/connect';
import type { ProfileCredentials } from '../../platforms/profile-context';
import { serverPlatforms } from '../../platforms/registry';
import type { Platform, QuotaPeriod, ReadQuotaSettings } from '../../platforms/types';
import type { Clock } from '../../clock';

/** Where a statistics read's units are counted, and how many reads may spend there in its period. */
export interface QuotaAccount extends QuotaPeriod {
  /** The moment on the app's clock the period was found for; it stamps the spending, which purgeQuotaLedger ages by. */
  at: Date;
}

/** How often a post's figures are read, by its age, and what the reads may spend (server/jobs/sync-stats.ts). */
export interface StatsSyncSettings extends ReadQuotaSettings {
  /** STATS_FRESH_HOURS / STATS_FRESH_MINUTES: posts up to this old are read this often (48 h, every 15 min). */
  freshHours: number;
  freshEveryMinutes: number;
  /** STATS_RECENT_DAYS / STATS_RECENT_MINUTES: then up to this old, this often (30 days, every 6 h). */
  recentDays: number;
  recentEveryMinutes: number;
  /** STATS_OLD_MINUTES: older posts (once a day). */
  oldEveryMinutes: number;
}

/**
 * Where a statistics read of a profile on a platform spends its units (each platform's readQuota):
 * YouTube's reads may bring the day's spending, publishing's included (recordQuota), up to the
 * day's units less the reserve kept for publishing still to come.
 */
export function quotaAccount(
  platform: Platform,
  account: Pick<ProfileCredentials, 'id' | 'youtubeClientId' | 'instagramUserId' | 'instagramLogin'>,
  settings: StatsSyncSettings,
  now: Date,
): QuotaAccount {
  return { ...serverPlatforms[platform].readQuota(account, settings, now), at: now };
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
