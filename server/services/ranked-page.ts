import type { SessionUser } from '../../src/lib/contract';
import type { Database } from '../db/connect';
import { pageSize } from '../routes/paging';

export interface RankedPage {
  rows: any[];
  total: number;
}

/**
 * One page of a ranked list (migration 0006): the list's count and, in the same statement, the
 * rows whose ranks fall on the page, newest first. `rows` is a query that may use `c.total`,
 * `$2` (the owner, 0 for everyone), `$3` (rows before the page) and `$4` (the page size).
 */
export async function rankedPage(db: Database, list: string, ownerId: number, page: number, rows: string): Promise<RankedPage> {
  const { rows: found } = await db.sql(
    `SELECT c.total, r.*
       FROM (SELECT coalesce(max(total), 0) AS total FROM list_counts WHERE list = $1 AND owner_id = $2) AS c
       LEFT JOIN LATERAL (${rows}) AS r ON true`,
    [list, ownerId, (page - 1) * pageSize, pageSize],
  );
  return { rows: found.filter((row) => row.id !== null), total: found[0]?.total ?? 0 };
}

/** The condition that puts a rank on the page that `rankedPage` asks for. */
export const onPage = (rank: string) => `${rank} <= c.total - $3 AND ${rank} > c.total - $3 - $4`;

/**
 * A page of one of the two ranked lists of creation requests, newest first: everyone's for an
 * admin (ranks `<prefix>_all`), the user's own otherwise (`<prefix>_owner`).
 */
export function requestsPage(
  db: Database,
  user: SessionUser,
  list: 'requests' | 'published',
  rankPrefix: 'rank' | 'published_rank',
  columns: string,
  page: number,
): Promise<RankedPage> {
  if (user.role === 'admin') {
    const rank = `${rankPrefix}_all`;
    return rankedPage(db, list, 0, page, `SELECT ${columns} FROM creation_requests WHERE ${onPage(rank)} ORDER BY ${rank} DESC`);
  }
  const rank = `${rankPrefix}_owner`;
  return rankedPage(
    db,
    list,
    user.id,
    page,
    `SELECT ${columns} FROM creation_requests WHERE user_id = $2 AND ${onPage(rank)} ORDER BY ${rank} DESC`,
  );
}
