import { useLocation, useSearch } from 'wouter';
import { Search, X } from 'lucide-react';
import { platformIds } from '../lib/platforms';
import * as t from '../lib/i18n';
import { filterParams } from '../lib/pagination';
import { Button } from './button';
import styles from './list-filters.module.css';

interface ListFiltersProps {
  searchPlaceholder: string;
  /** The statuses the list can be narrowed to, with their labels. */
  statuses?: [string, string][];
  /** Whether the list can be narrowed to a platform. */
  platforms?: boolean;
  /** Whether the list can be narrowed to the profiles with a health problem (issue 32.1: 'Проблемні'). */
  health?: boolean;
}

/**
 * A list's search box and status, platform and health choices. They live in the URL (`?q=&status=&platform=&health=`),
 * so a filtered list survives a reload, goes back with the browser and can be sent as a link;
 * any change starts again from page 1.
 */
export function ListFilters({ searchPlaceholder, statuses, platforms = false, health = false }: ListFiltersProps) {
  const [path, navigate] = useLocation();
  const search = useSearch();
  const current = new URLSearchParams(search);
  const searched = current.get('q') ?? '';

  const apply = (changes: Partial<Record<(typeof filterParams)[number], string>>) => {
    const next = new URLSearchParams(search);
    for (const [name, value] of Object.entries(changes)) {
      if (value) next.set(name, value);
      else next.delete(name);
    }
    next.delete('page');
    const query = next.toString();
    navigate(query ? `${path}?${query}` : path);
  };
  const filtered = filterParams.some((name) => current.get(name));

  return (
    <form
      role="search"
      className={styles.filters}
      onSubmit={(event) => {
        event.preventDefault();
        apply({ q: String(new FormData(event.currentTarget).get('q') ?? '').trim() });
      }}
    >
      <div className={styles.searchRow}>
        <label className={styles.search}>
          <span className={styles.label}>{t.filters.search}</span>
          {/* Keyed by the URL's search, so the browser's back button puts its text back in the box. */}
          <input
            key={searched}
            type="search"
            name="q"
            className={styles.input}
            defaultValue={searched}
            placeholder={searchPlaceholder}
            maxLength={100}
          />
        </label>
        <Button type="submit" variant="secondary">
          <Search size={14} aria-hidden />
          {t.filters.find}
        </Button>
      </div>
      {statuses && (
        <label className={styles.choice}>
          <span className={styles.label}>{t.filters.status}</span>
          <select className={styles.input} value={current.get('status') ?? ''} onChange={(event) => apply({ status: event.target.value })}>
            <option value="">{t.filters.any}</option>
            {statuses.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
      )}
      {platforms && (
        <label className={styles.choice}>
          <span className={styles.label}>{t.filters.platform}</span>
          <select
            className={styles.input}
            value={current.get('platform') ?? ''}
            onChange={(event) => apply({ platform: event.target.value })}
          >
            <option value="">{t.filters.any}</option>
            {platformIds.map((platform) => (
              <option key={platform} value={platform}>
                {t.platform.names[platform]}
              </option>
            ))}
          </select>
        </label>
      )}
      {health && (
        <label className={styles.choice}>
          <span className={styles.label}>{t.health.column}</span>
          <select className={styles.input} value={current.get('health') ?? ''} onChange={(event) => apply({ health: event.target.value })}>
            <option value="">{t.filters.any}</option>
            <option value="problem">{t.health.filterProblem}</option>
          </select>
        </label>
      )}
      {filtered && (
        <Button variant="ghost" onClick={() => apply({ q: '', status: '', platform: '', health: '' })}>
          <X size={14} aria-hidden />
          {t.filters.reset}
        </Button>
      )}
    </form>
  );
}
