import { Film } from 'lucide-react';
import type { Column } from './data-table';
import styles from './poster.module.css';

/** A set's first poster, or a film mark until one is rendered. */
export function Poster({ url }: { url: string | null | undefined }) {
  return url ? (
    <img src={url} alt="" className={styles.poster} loading="lazy" />
  ) : (
    <span className={styles.poster} aria-hidden>
      <Film size={18} />
    </span>
  );
}

/** The poster column the request and published lists open with. */
export function posterColumn<Row extends { posterUrl?: string | null }>(): Column<Row> {
  return { header: '', width: '64px', cell: (row) => <Poster url={row.posterUrl} /> };
}
