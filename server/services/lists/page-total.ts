import type { Database } from '../../db/connect';

/**
 * The count carried by a page's rows (`count(*) OVER ()` beside each row, so a short list's page
 * and its count are one statement; the window counts every matching row, which suits lists of one
 * owner's few rows, while the long lists keep their counts in list_counts). A page past the end has
 * no rows to carry it, so then it is asked alone.
 */
export async function totalOf(rows: { total: number }[], countAlone: () => Promise<number>): Promise<number> {
  return rows[0]?.total ?? countAlone();
}

/** The rows of a short list's table that belong to `owner` (every row when null), counted alone. */
export async function ownedCount(
  db: Database,
  table: 'account_groups' | 'tag_sets' | 'photos' | 'users',
  owner: number | null,
): Promise<number> {
  const { rows } = await db.sql(
    `SELECT count(*)::int AS total FROM ${table} ${owner === null ? '' : 'WHERE user_id = $1'}`,
    owner === null ? [] : [owner],
  );
  return rows[0].total;
}
