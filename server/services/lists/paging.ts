import type { Paged } from '../../../src/lib/contract';

/** Rows per page of every paged list (the spec leaves the size open). */
export const pageSize = 20;

/** `?page=N`, pages start at 1; anything else is page 1. */
export function pageFromQuery(query: unknown): number {
  const raw = (query as { page?: unknown } | undefined)?.page;
  const page = Number(raw);
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

export function offsetOf(page: number): number {
  return (page - 1) * pageSize;
}

export function paged<T>(data: T[], total: number, page: number): Paged<T> {
  return { data, page, totalPages: Math.ceil(total / pageSize), total };
}
