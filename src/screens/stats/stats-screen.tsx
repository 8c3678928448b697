import { useId } from 'react';
import { Link } from 'wouter';
import { useSelector } from '@xstate/react';
import { Download } from 'lucide-react';
import type { TopVideo } from '../../lib/contract';
import { t } from '../../lib/i18n';
import { statsOverviewMachine } from '../../machines/stats-overview-machine';
import { Button } from '../../components/button';
import { DataTable, type Column } from '../../components/data-table';
import { Dialog } from '../../components/dialog';
import { LoadError } from '../../components/load-error';
import { Page } from '../../components/page';
import { useScreenActor } from '../../components/use-screen-actor';
import { StatsFiltersFields } from './stats-filters-form';
import styles from './stats-screen.module.css';

/** `YYYY-MM-DD` as operators read it. */
const shownDay = (day: string) => day.split('-').reverse().join('.');

const topColumns: Column<TopVideo & { rank: number }>[] = [
  { header: t.statsScreen.columnRank, cell: (video) => video.rank, width: '56px', align: 'right' },
  {
    header: t.statsScreen.columnVideo,
    cell: (video) => <Link href={`/video/youtube/${video.idUpload}`}>{t.statsScreen.videoTitle(video.title, video.number)}</Link>,
  },
  { header: t.statsScreen.columnProfile, cell: (video) => video.account?.title ?? t.stats.deletedProfile },
  { header: t.statsScreen.columnPlatforms, cell: (video) => video.platforms.map((platform) => t.platform.names[platform]).join(', ') },
  { header: t.statsScreen.columnGained, cell: (video) => video.gained, align: 'right' },
  { header: t.statsScreen.columnViews, cell: (video) => video.views, align: 'right' },
];

/** /stats: the videos that gained the most views over a period, and the period's figures as CSV. */
export function StatsScreen() {
  const topTitleId = useId();
  const actor = useScreenActor(statsOverviewMachine, { id: 'statsOverview' });
  const { filters, choices, top, error, exportError } = useSelector(actor, (snapshot) => snapshot.context);
  const topLoading = useSelector(actor, (snapshot) => snapshot.matches({ top: 'loading' }));
  const exporting = useSelector(actor, (snapshot) => snapshot.value.export);

  return (
    <Page
      title={t.statsScreen.title}
      actions={
        <Button variant="secondary" onClick={() => actor.send({ type: 'export.open' })}>
          <Download size={16} aria-hidden />
          {t.statsScreen.exportOpen}
        </Button>
      }
    >
      <StatsFiltersFields
        filters={filters}
        choices={choices}
        submitLabel={t.statsScreen.show}
        onSubmit={(applied) => actor.send({ type: 'filters.apply', filters: applied })}
        layout="bar"
      />
      {error ? <LoadError error={error} /> : null}

      <section aria-labelledby={topTitleId} aria-busy={topLoading}>
        <h2 id={topTitleId} className={styles.sectionTitle}>
          {t.statsScreen.top}
        </h2>
        <p className={styles.note}>{t.statsScreen.topPeriod(shownDay(filters.from), shownDay(filters.to))}</p>
        {top && top.videos.length === 0 ? (
          <p className={styles.note}>{t.statsScreen.topEmpty}</p>
        ) : (
          <DataTable
            columns={topColumns}
            rows={top?.videos.map((video, index) => ({ ...video, rank: index + 1 }))}
            rowKey={(video) => video.videoId}
            loading={topLoading}
          />
        )}
      </section>

      {exporting !== 'closed' && (
        <Dialog
          title={t.statsScreen.exportTitle}
          description={t.statsScreen.exportText}
          onClose={() => actor.send({ type: 'export.cancel' })}
        >
          {exportError ? <LoadError error={exportError} /> : null}
          <StatsFiltersFields
            filters={filters}
            choices={choices}
            submitLabel={t.statsScreen.exportSubmit}
            busyLabel={exporting === 'downloading' ? t.statsScreen.exportRunning : undefined}
            onSubmit={(asked) => actor.send({ type: 'export.submit', filters: asked })}
            actions={
              <Button variant="secondary" onClick={() => actor.send({ type: 'export.cancel' })}>
                {t.confirm.cancel}
              </Button>
            }
            layout="dialog"
          />
        </Dialog>
      )}
    </Page>
  );
}
