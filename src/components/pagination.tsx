import { Link, useLocation, useSearch } from 'wouter';
import { pageItems } from '../lib/pagination';
import * as t from '../lib/i18n';
import styles from './pagination.module.css';

interface PaginationProps {
  page: number;
  totalPages: number;
  /** With a callback the buttons call it; without one they are `?page=N` links on the current path. */
  onPageChange?: (page: number) => void;
}

export function Pagination({ page, totalPages, onPageChange }: PaginationProps) {
  const [path] = useLocation();
  const search = useSearch();
  const items = pageItems(page, totalPages);
  if (items.length === 0) return null;

  const hrefFor = (target: number) => {
    const params = new URLSearchParams(search);
    params.set('page', String(target));
    return `${path}?${params}`;
  };

  return (
    <nav className={styles.pagination} aria-label={t.app.pagination}>
      {items.map((item) => {
        const label = item.kind === 'jump' ? '...' : String(item.page);
        const current = item.kind === 'page' && item.page === page;
        const className = current ? `${styles.item} ${styles.current}` : styles.item;
        const key = `${item.kind}-${item.page}`;
        if (onPageChange) {
          return (
            <button
              key={key}
              type="button"
              className={className}
              aria-current={current ? 'page' : undefined}
              onClick={() => onPageChange(item.page)}
            >
              {label}
            </button>
          );
        }
        return (
          <Link key={key} href={hrefFor(item.page)} className={className} aria-current={current ? 'page' : undefined}>
            {label}
          </Link>
        );
      })}
    </nav>
  );
}
