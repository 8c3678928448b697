import { useId } from 'react';
import { useSelector } from '@xstate/react';
import { statsPeriods, type StatsFigures, type StatsReport } from '../lib/contract';
import { formatDate } from '../lib/kyiv-time';
import * as t from '../lib/i18n';
import { statsMachine } from '../machines/stats-machine';
import { ChartWithTable } from './chart-with-table';
import { DataTable, type Column } from './data-table';
import { LoadError } from './load-error';
import { SegmentedButtons } from './segmented-buttons';
import { Spinner } from './spinner';
import { useScreenActor } from './use-screen-actor';
import styles from './stats-panel.module.css';

const figureColumns = <Row extends StatsFigures>(): Column<Row>[] => [
  { header: t.stats.columnPosts, cell: (row) => row.posts, align: 'right' },
  { header: t.videoTable.views, cell: (row) => row.views, align: 'right' },
  { header: t.videoTable.likes, cell: (row) => row.likes, align: 'right' },
  { header: t.videoTable.comments, cell: (row) => row.comments, align: 'right' },
];

type PlatformRow = StatsReport['byPlatform'][number];
type ProfileRow = StatsReport['byProfile'][number];

const platformColumns: Column<PlatformRow>[] = [
  { header: t.stats.columnPlatform, cell: (row) => t.platform.names[row.platform] },
  ...figureColumns<PlatformRow>(),
];
const profileColumns: Column<ProfileRow>[] = [
  { header: t.stats.columnProfile, cell: (row) => row.account?.title ?? t.stats.deletedProfile },
  ...figureColumns<ProfileRow>(),
];

/** The chart's figures as a table, a row per moment: what the canvas shows, for the keyboard and screen readers. */
function viewsColumns(report: StatsReport): Column<number>[] {
  return [
    { header: t.videoTable.columnDate, cell: (index) => formatDate(report.at[index]! * 1000) },
    ...report.views.map(({ platform, values }) => ({
      header: t.platform.names[platform],
      cell: (index: number) => values[index] ?? 0,
      align: 'right' as const,
    })),
  ];
}

interface StatsPanelProps {
  /** `/stats/video/{idUpload}` or `/stats/accounts/{id}`. */
  path: string;
  /** A profile's own panel has one profile: its table would repeat the platforms' totals. */
  byProfile?: boolean;
}

/** Views over time and totals per platform (and per profile) of a published set or a profile. */
export function StatsPanel({ path, byProfile = true }: StatsPanelProps) {
  const titleId = useId();
  const actor = useScreenActor(statsMachine, { id: 'stats', input: { path } });
  const days = useSelector(actor, (snapshot) => snapshot.context.days);
  const report = useSelector(actor, (snapshot) => snapshot.context.report);
  const error = useSelector(actor, (snapshot) => (snapshot.matches('failed') ? snapshot.context.error : undefined));

  let body;
  if (error) body = <LoadError error={error} />;
  else if (!report) body = <Spinner />;
  else if (report.byPlatform.length === 0) body = <p className={styles.empty}>{t.stats.empty}</p>;
  else {
    body = (
      <>
        <ChartWithTable
          at={report.at}
          lines={report.views}
          reading={report.days === 1 ? 'hours' : 'views'}
          columns={viewsColumns(report)}
        />
        {report.syncedAt && <p className={styles.synced}>{t.stats.syncedAt(formatDate(report.syncedAt))}</p>}
        <h3 className={styles.tableTitle}>{t.stats.byPlatform}</h3>
        <DataTable columns={platformColumns} rows={report.byPlatform} rowKey={(row) => row.platform} />
        {byProfile && (
          <>
            <h3 className={styles.tableTitle}>{t.stats.byProfile}</h3>
            <DataTable columns={profileColumns} rows={report.byProfile} rowKey={(row) => row.account?.id ?? 0} />
          </>
        )}
      </>
    );
  }

  return (
    <section className={styles.panel} aria-labelledby={titleId}>
      <header className={styles.header}>
        <h2 id={titleId} className={styles.title}>
          {t.stats.panel}
        </h2>
        <SegmentedButtons
          label={t.stats.period}
          options={statsPeriods}
          selected={days}
          labelOf={(period) => t.stats.periods[period]}
          onPick={(period) => actor.send({ type: 'period.pick', days: period })}
        />
      </header>
      {body}
    </section>
  );
}
