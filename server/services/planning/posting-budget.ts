import { and, inArray } from 'drizzle-orm';
import type { PostingBudget, PostingBudgets, SessionUser } from '../../../src/lib/contract';
import { dayjs } from '../../../src/lib/dates';
import { displayTimezone } from '../../../src/lib/kyiv-time';
import { visibleTo } from '../../auth/ownership';
import type { Database } from '../../db/connect';
import { accounts } from '../../db/schema';
import type { Cap } from '../../platforms/types';
import { capOf } from './posting-caps';
import { profileContext, type PlatformAccess } from '../../platforms/profile-context';
import { memoryProgressStore } from '../../platforms/progress';
import { serverPlatforms } from '../../platforms/registry';
import { platformIds, platformOf } from '../../../src/lib/platforms';
import type { Platform, PostingCapSettings, PublishingLimit } from '../../platforms/types';

type Account = typeof accounts.$inferSelect;

/** Posts of a cap's scope on a platform in [from, to): gone out (by published_at) and still planned (by scheduled_at). */
async function dayCounts(db: Database, platform: Platform, cap: Cap, from: Date, to: Date) {
  const byClient = 'youtubeClientId' in cap.scope;
  const scope = byClient ? 'account_id IN (SELECT id FROM accounts WHERE youtube_client_id = $4)' : 'account_id = $4';
  const { rows } = await db.sql(
    `SELECT
       (SELECT count(*) FROM video_posts WHERE platform = $1 AND status = 'done' AND published_at >= $2 AND published_at < $3 AND ${scope}) AS used,
       (SELECT count(*) FROM video_posts WHERE platform = $1 AND status = 'pending' AND scheduled_at >= $2 AND scheduled_at < $3 AND ${scope}) AS planned`,
    [
      platform,
      from,
      to,
      byClient ? (cap.scope as { youtubeClientId: string }).youtubeClientId : (cap.scope as { accountId: number }).accountId,
    ],
  );
  return { used: Number(rows[0]!.used), planned: Number(rows[0]!.planned) };
}

/**
 * Reads a profile's cap on a platform as the platform reports it (Instagram's), through its own
 * connection, cached per profile (readLiveCap); null where the platform publishes no figure.
 */
export function liveCapReader(db: Database, { secretsKey, platforms }: { secretsKey: Buffer; platforms: PlatformAccess }) {
  return async (account: Account, platform: Platform): Promise<PublishingLimit | null> => {
    const read = serverPlatforms[platform].readLiveCap;
    if (!read) return null;
    return read(String(account.id), () =>
      profileContext(account, platform, { db, secretsKey, settings: platforms, progress: memoryProgressStore() }),
    );
  };
}

function activePlatforms(account: Account): Platform[] {
  return platformIds.filter((platform) => account[platformOf(platform).fields.switchedOn]);
}

/**
 * Each chosen profile's budget per platform for a Kyiv day: the cap, what went out that day, what
 * is planned for it, and what is left. The engine enforces the platform's own window at publish
 * time (server/services/planning/posting-caps.ts); a calendar day is what an operator plans in.
 */
export async function postingBudgets(
  db: Database,
  user: SessionUser,
  { accountIds, date }: { accountIds: number[]; date: string },
  { secretsKey, platforms, postingCaps }: { secretsKey: Buffer; platforms: PlatformAccess; postingCaps: PostingCapSettings },
): Promise<PostingBudgets> {
  const from = dayjs.tz(date, displayTimezone);
  const range = { from: from.toDate(), to: dayjs.tz(from.add(1, 'day').format('YYYY-MM-DD'), displayTimezone).toDate() };
  const rows = await db.orm
    .select()
    .from(accounts)
    .where(and(inArray(accounts.id, accountIds), visibleTo(user, accounts.userId)));
  rows.sort((a, b) => accountIds.indexOf(a.id) - accountIds.indexOf(b.id));
  const readLiveCap = liveCapReader(db, { secretsKey, platforms });
  const budgets: PostingBudget[] = [];
  for (const account of rows) {
    for (const platform of activePlatforms(account)) {
      const figure = await readLiveCap(account, platform);
      const cap = capOf(platform, account, figure, postingCaps);
      const scope: Cap = cap ?? { limit: 0, windowMs: null, scope: { accountId: account.id } };
      const { used, planned } = await dayCounts(db, platform, scope, range.from, range.to);
      const limit = cap?.limit ?? null;
      budgets.push({
        accountId: account.id,
        platform,
        limit,
        used,
        planned,
        remaining: limit === null ? null : Math.max(0, limit - used - planned),
      });
    }
  }
  return { date, budgets };
}
