import type { SessionUser } from '../../../src/lib/contract';
import type { Database } from '../../db/connect';
import { pageSize } from './paging';

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
  const { rows: found } = await db.prepared(
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

/**
 * A page of creation requests narrowed by the operator's filters, where ranks no longer number
 * the rows: the matches are walked in `orderBy` through the owner's index and counted beside the
 * page. `where` holds conditions on creation_requests whose values are `params`, numbered from $1.
 */
export async function filteredRequestsPage(
  db: Database,
  user: SessionUser,
  where: string[],
  params: unknown[],
  columns: string,
  orderBy: string,
  page: number,
): Promise<RankedPage> {
  const conditions = [...where];
  const values = [...params];
  if (user.role !== 'admin') {
    values.push(user.id);
    conditions.push(`user_id = $${values.length}`);
  }
  values.push(pageSize, (page - 1) * pageSize);
  const filter = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
  const { rows } = await db.sql(
    `SELECT count(*) OVER ()::int AS total, ${columns} FROM creation_requests ${filter}
      ORDER BY ${orderBy} LIMIT $${values.length - 1} OFFSET $${values.length}`,
    values,
  );
  if (rows.length > 0 || page === 1) return { rows, total: rows[0]?.total ?? 0 };
  const counted = await db.sql(`SELECT count(*)::int AS total FROM creation_requests ${filter}`, values.slice(0, -2));
  return { rows, total: counted.rows[0].total };
}

/** A search typed by the operator as an ILIKE pattern: its own % and _ match themselves. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}
