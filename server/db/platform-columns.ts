import { platforms, type PlatformOf } from '../../src/lib/platforms';

type ColumnKey = keyof PlatformOf['columns'];

/**
 * Each platform's column for `field` as its descriptor names it, read under SPEC's field name as
 * the ORM does (`a.views_tiktok AS "viewsTikTok"`), so raw SQL lists take a new platform without an edit.
 */
export function platformColumns(field: ColumnKey, table?: string): string {
  const prefix = table ? `${table}.` : '';
  return platforms.map((platform) => `${prefix}${platform.columns[field]} AS "${platform.fields[field]}"`).join(', ');
}

/** True where the profile `table` has any platform switched on. */
export function anySwitchedOn(table: string): string {
  return `(${platforms.map((platform) => `${table}.${platform.columns.switchedOn}`).join(' OR ')})`;
}
