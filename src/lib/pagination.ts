export type PageItem = { kind: 'page'; page: number } | { kind: 'jump'; page: number; direction: 'back' | 'forward' };

/** Pages on each side of the current one that are always shown. */
export const paginationWindow = 2;

/**
 * The first and last pages, a window around the current one, and '...' jump points for the gaps.
 * A jump goes to the middle of the pages it hides. Nothing at all for one page or fewer.
 */
export function pageItems(current: number, totalPages: number): PageItem[] {
  if (totalPages <= 1) return [];
  const from = Math.max(2, current - paginationWindow);
  const to = Math.min(totalPages - 1, current + paginationWindow);
  const items: PageItem[] = [{ kind: 'page', page: 1 }];
  if (from > 2) items.push({ kind: 'jump', page: Math.floor((1 + from) / 2), direction: 'back' });
  for (let page = from; page <= to; page++) items.push({ kind: 'page', page });
  if (to < totalPages - 1) items.push({ kind: 'jump', page: Math.ceil((to + totalPages) / 2), direction: 'forward' });
  items.push({ kind: 'page', page: totalPages });
  return items;
}

/** The filters a list URL may carry (ListFilters), passed on to the list's API call as they are. */
export const filterParams = ['q', 'status', 'platform', 'health'] as const;

/** The API query of a list page: `page=N` and the URL's filters that are set. */
export function listQuery(search: string): string {
  const from = new URLSearchParams(search);
  const query = new URLSearchParams({ page: String(pageFromSearch(search)) });
  for (const name of filterParams) {
    const value = from.get(name)?.trim();
    if (value) query.set(name, value);
  }
  return query.toString();
}

/** The `?page=N` of the current URL, 1 when absent or invalid. */
export function pageFromSearch(search: string): number {
  const page = Number(new URLSearchParams(search).get('page'));
  return Number.isInteger(page) && page >= 1 ? page : 1;
}
