import { and, asc, eq, isNull, or } from 'drizzle-orm';
import type { AccountSummary, Paged, PlatformName, SessionUser } from '../../../src/lib/contract';
import type { Database } from '../../db/connect';
import { platformColumns } from '../../db/platform-columns';
import { accounts } from '../../db/schema';
import { visibleTo } from '../../auth/ownership';
import { platformOf, platforms } from '../../../src/lib/platforms';
import { toAccountSummary, type AccountSummaryRow } from '../profiles/account-views';
import { offsetOf, paged, pageSize } from './paging';

export interface AccountFilter {
  /** Only this user's profiles; null for everyone's, an admin's list. */
  ownerId: number | null;
  /** A LIKE pattern matched against the comment, the proxy and the names the platforms gave. */
  pattern?: string | null;
  /** Only the profiles with this platform switched on. */
  platform?: PlatformName | null;
  /** Only the profiles a platform switched on of which is not 'connected' (issues 32.1, 39.5, 'Проблемні'). */
  problem?: boolean;
}

/** Each connection's one state (StoredStates) and the reach marks (StoredReach), for the profile `a`. */
export const checkColumns = `(SELECT coalesce(jsonb_object_agg(s.platform, jsonb_build_object('state', s.state, 'kind', s.kind, 'source', s.source,
                                                                'detail', s.detail, 'at', s.at)), '{}'::jsonb)
     FROM connection_states AS s WHERE s.account_id = a.id) AS "health",
  (SELECT coalesce(jsonb_agg(jsonb_build_object('platform', r.platform, 'views', r.views, 'medianViews', r.median_views,
                                                'historyPosts', r.history_posts, 'markedAt', r.marked_at)), '[]'::jsonb)
     FROM profile_reach AS r WHERE r.account_id = a.id) AS "reach"`;

/** Each connection's one state and the reach marks of profile `id` (checkColumns). */
export async function profileChecksOf(db: Database, id: number): Promise<Required<Pick<AccountSummaryRow, 'health' | 'reach'>>> {
  const { rows } = await db.sql(`SELECT ${checkColumns} FROM accounts AS a WHERE a.id = $1`, [id]);
  return { health: rows[0]?.health ?? {}, reach: rows[0]?.reach ?? [] };
}

/** Whether profile `a` has a platform switched on that is not 'connected' (the list's 'Проблемні'), as connectionStatesOf shows it. */
const hasHealthProblem = `EXISTS (SELECT 1 FROM connection_states AS s WHERE s.account_id = a.id AND s.state <> 'connected'
  AND CASE s.platform ${platforms.map(({ id, columns }) => `WHEN '${id}' THEN a.${columns.switchedOn}`).join(' ')} END)`;

/**
 * The columns of a profile's summary row (AccountSummaryRow) for the profile `a`, everything
 * accountStatus and toAccountSummary read: the profile lists and the home screen ask them alike.
 */
export const summaryColumns = `a.id, a.proxy, a.ip_version AS "ipVersion", a.comments, a.group_id AS "groupId", a.user_id AS "userId",
  ${platformColumns('switchedOn', 'a')}, a.in_youtube AS "inYouTube",
  -- As checkedNamesOf (server/platforms/connections.ts).
  (SELECT coalesce(jsonb_object_agg(c.platform, c.checked_name), '{}'::jsonb) FROM account_connections AS c
    WHERE c.account_id = a.id AND c.checked_name IS NOT NULL) AS "connectedAs",
  ARRAY(SELECT c.platform FROM account_connections AS c
         WHERE c.account_id = a.id AND c.method = 'oauth' AND c.state = 'connected') AS "linkedPlatforms",
  -- As typedPlatformsOf (server/services/profiles/account-views.ts).
  ARRAY(SELECT c.platform FROM account_connections AS c
         WHERE c.account_id = a.id AND c.access_token IS NOT NULL
           AND ((c.platform = 'tiktok' AND c.method = 'pasted')
             OR (c.platform = 'instagram' AND c.method = 'login' AND c.remote_name IS NOT NULL))) AS "typedPlatforms",
  ${checkColumns}`;

/**
 * One page of profiles with their owners' logins and groups, newest first: index accounts
 * (user_id, id DESC). The count beside the page's rows is taken before the joins, so the owner and
 * group are looked up for the page's 20 rows only. Plain SQL, as on the long lists: the query
 * builder's per-request work cost more than the query on this list's few hundred rows.
 */
export async function accountPage(db: Database, filter: AccountFilter, page: number): Promise<Paged<AccountSummary>> {
  const values: unknown[] = [];
  const conditions: string[] = [];
  if (filter.ownerId !== null) {
    values.push(filter.ownerId);
    conditions.push(`a.user_id = $${values.length}`);
  }
  if (filter.pattern) {
    values.push(filter.pattern);
    const pattern = `$${values.length}`;
    conditions.push(
      `(a.comments ILIKE ${pattern} OR a.proxy ILIKE ${pattern}
        OR EXISTS (SELECT 1 FROM account_connections AS c WHERE c.account_id = a.id AND c.checked_name ILIKE ${pattern}))`,
    );
  }
  if (filter.platform) conditions.push(`a.${platformOf(filter.platform).columns.switchedOn}`);
  if (filter.problem) conditions.push(hasHealthProblem);
  const where = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
  const filterValues = [...values];
  values.push(pageSize, offsetOf(page));
  const { rows } = await db.prepared(
    `SELECT p.*, u.login AS "ownerLogin", g.name AS "groupName"
       FROM (SELECT ${summaryColumns},
                    count(*) OVER ()::int AS total
               FROM accounts AS a
              ${where}
              ORDER BY a.id DESC LIMIT $${values.length - 1} OFFSET $${values.length}) AS p
       JOIN users AS u ON u.id = p."userId"
       LEFT JOIN account_groups AS g ON g.id = p."groupId"
      ORDER BY p.id DESC`,
    values,
  );
  // A page past the end carries no count beside its rows: then it is asked alone.
  const total = rows[0]?.total ?? (await db.sql(`SELECT count(*)::int AS total FROM accounts AS a ${where}`, filterValues)).rows[0].total;
  return paged(
    rows.map(({ ownerLogin, groupName, total: _total, ...account }) =>
      toAccountSummary({ account: account as AccountSummaryRow, ownerLogin, groupName }),
    ),
    total,
    page,
  );
}

/** The profiles a group may hold, oldest first: those in no group, and those already in group `groupId` (none for a new group). */
export async function groupCandidates(db: Database, user: SessionUser, groupId: number | null) {
  const free = groupId !== null ? or(isNull(accounts.groupId), eq(accounts.groupId, groupId)) : isNull(accounts.groupId);
  return db.orm
    .select({
      id: accounts.id,
      comments: accounts.comments,
      youtubeLogin: accounts.youtubeLogin,
      instagramLogin: accounts.instagramLogin,
    })
    .from(accounts)
    .where(and(visibleTo(user, accounts.userId), free))
    .orderBy(asc(accounts.id));
}
