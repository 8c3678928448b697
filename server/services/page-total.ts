import { sql } from 'drizzle-orm';

/**
 * The list's count beside each row of the page, so a short list's page and its count are one
 * statement. The window counts every matching row, which suits lists of one owner's few rows
 * (profiles, groups, tag sets, images, users); the long lists keep their counts in list_counts.
 */
export const totalBesideRows = sql<number>`count(*) OVER ()`.mapWith(Number);

/** The count carried by a page's rows; a page past the end has none, so then it is asked alone. */
export async function totalOf(rows: { total: number }[], countAlone: () => Promise<number>): Promise<number> {
  return rows[0]?.total ?? countAlone();
}
