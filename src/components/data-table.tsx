import type { ReactNode } from 'react';
import { useLocation } from 'wouter';
import * as t from '../lib/i18n';
import { EmptyState, type EmptyHint } from './empty-state';
import { Spinner } from './spinner';
import styles from './data-table.module.css';

export interface Column<Row> {
  header: ReactNode;
  cell: (row: Row) => ReactNode;
  /** A CSS width such as '80px'; the remaining columns share the rest. */
  width?: string;
  align?: 'left' | 'right' | 'center';
}

interface DataTableProps<Row> {
  columns: Column<Row>[];
  rows: Row[] | undefined;
  rowKey: (row: Row) => string | number;
  loading?: boolean;
  /** Makes the whole row a link; controls inside a cell should stop the click from bubbling. */
  rowHref?: (row: Row) => string;
  /** What to do first when there are no rows, under SPEC's 'Нічого не знайдено'. */
  emptyHint?: EmptyHint;
  /**
   * On phones, cards off the screen are laid out and painted only when scrolled near. Only for rows
   * with no popover inside: the cards' paint containment would clip it.
   */
  skipOffscreenCards?: boolean;
}

export function DataTable<Row>({ columns, rows, rowKey, loading, rowHref, emptyHint, skipOffscreenCards = false }: DataTableProps<Row>) {
  const [, navigate] = useLocation();
  if (loading && !rows) return <Spinner />;
  return (
    // Below 600 px each row is a card (the CSS, labelled by data-label); between that and a wide
    // screen the table scrolls inside this box, which keyboards reach through its tab stop.
    // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
    <div className={styles.wrapper} role="region" aria-label={t.app.table} tabIndex={0}>
      <table className={styles.table}>
        <thead>
          <tr>
            {columns.map((column, index) => (
              <th key={index} style={{ width: column.width, textAlign: column.align }}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows && rows.length > 0 ? (
            rows.map((row) => (
              <tr
                key={rowKey(row)}
                className={
                  [rowHref && styles.linkRow, skipOffscreenCards && styles.offscreenSkipped].filter(Boolean).join(' ') || undefined
                }
                onClick={rowHref ? () => navigate(rowHref(row)) : undefined}
              >
                {columns.map((column, index) => (
                  <td key={index} style={{ textAlign: column.align }} data-label={typeof column.header === 'string' ? column.header : ''}>
                    {column.cell(row)}
                  </td>
                ))}
              </tr>
            ))
          ) : (
            <tr>
              <td colSpan={columns.length} className={styles.empty}>
                <EmptyState hint={emptyHint} />
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
