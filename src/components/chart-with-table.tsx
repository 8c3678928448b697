import { lazy, Suspense, useId, useState } from 'react';
import * as t from '../lib/i18n';
import { Button } from './button';
import { DataTable, type Column } from './data-table';
import type { StatsChartProps } from './stats-chart';
import styles from './chart-with-table.module.css';

// uPlot arrives with the chart, in a chunk of its own, only on the screens that show one.
const StatsChart = lazy(() => import('./stats-chart').then((module) => ({ default: module.StatsChart })));

interface ChartWithTableProps extends StatsChartProps {
  /** The table's columns, read by a moment's index in `at`. */
  columns: Column<number>[];
}

/** A statistics chart and, behind a button, its figures as a table: what the canvas shows, for the keyboard and screen readers. */
export function ChartWithTable({ at, lines, reading, columns }: ChartWithTableProps) {
  const tableId = useId();
  const [tableShown, setTableShown] = useState(false);
  return (
    <>
      <Suspense fallback={<div className={styles.chartPlaceholder}>{t.stats.chartLoading}</div>}>
        <StatsChart at={at} lines={lines} reading={reading} />
      </Suspense>
      <Button
        variant="secondary"
        className={styles.tableToggle}
        aria-expanded={tableShown}
        aria-controls={tableId}
        onClick={() => setTableShown(!tableShown)}
      >
        {tableShown ? t.stats.hideTable : t.stats.showTable}
      </Button>
      <div id={tableId} hidden={!tableShown}>
        <DataTable columns={columns} rows={at.map((_, index) => index)} rowKey={(index) => index} />
      </div>
    </>
  );
}
