import { useEffect, useId, useRef } from 'react';
import { Link } from 'wouter';
import { useSelector } from '@xstate/react';
import { Download } from 'lucide-react';
import type { ActorRefFrom } from 'xstate';
import type { RankedProfile, StatsChoices, TopVideo } from '../../lib/contract';
import * as t from '../../lib/i18n';
import { statsOverviewMachine, type StatsFilters } from '../../machines/stats-overview-machine';
import { Button } from '../../components/button';
import { DataTable, type Column } from '../../components/data-table';
import { Dialog } from '../../components/dialog';
import { LoadError } from '../../components/load-error';
import { Page } from '../../components/page';
import { Spinner } from '../../components/spinner';
import { useScreenActor } from '../../components/use-screen-actor';
import { StatsFiltersFields } from './stats-filters-form';
import { StatsOverviewPanel } from './stats-overview-panel';
import styles from './stats-screen.module.css';

/** `YYYY-MM-DD` as operators read it. */
const shownDay = (day: string) => day.split('-').reverse().join('.');

const { figure } = t.statsScreen;

const topColumns: Column<TopVideo & { rank: number }>[] = [
  { header: t.statsScreen.columnRank, cell: (video) => video.rank, width: '56px', align: 'right' },
  {
    header: t.statsScreen.columnVideo,
    cell: (video) => <Link href={`/video/youtube/${video.idUpload}`}>{t.statsScreen.videoTitle(video.title, video.number)}</Link>,
  },
  { header: t.statsScreen.columnProfile, cell: (video) => video.account?.title ?? t.stats.deletedProfile },
  { header: t.statsScreen.columnPlatforms, cell: (video) => video.platforms.map((platform) => t.platform.names[platform]).join(', ') },
  { header: t.statsScreen.columnGained, cell: (video) => figure(video.gained), align: 'right' },
  { header: t.statsScreen.columnViews, cell: (video) => figure(video.views), align: 'right' },
];

const profileColumns: Column<RankedProfile & { rank: number }>[] = [
  { header: t.statsScreen.columnRank, cell: (profile) => profile.rank, width: '56px', align: 'right' },
  { header: t.statsScreen.columnProfile, cell: (profile) => profile.account?.title ?? t.stats.deletedProfile },
  { header: t.statsScreen.columnGained, cell: (profile) => figure(profile.gained), align: 'right' },
  { header: t.statsScreen.newLikes, cell: (profile) => figure(profile.likes), align: 'right' },
  { header: t.statsScreen.newComments, cell: (profile) => figure(profile.comments), align: 'right' },
  { header: t.statsScreen.columnPostsWithFigures, cell: (profile) => figure(profile.posts), align: 'right' },
];

/**
 * /stats: a period's figures for the profiles and platform chosen: totals per platform, each day's
 * new views, the top videos and the profiles ranked; and the same figures as CSV.
 */
export function StatsScreen() {
  const topTitleId = useId();
  const profilesTitleId = useId();
  const actor = useScreenActor(statsOverviewMachine, { id: 'statsOverview' });
  const { filters, choices, figures, error } = useSelector(actor, (snapshot) => snapshot.context);
  const loading = useSelector(actor, (snapshot) => snapshot.matches({ figures: 'loading' }));
  const exporting = useSelector(actor, (snapshot) => snapshot.value.export);
  const overview = figures?.overview;
  const empty = overview !== undefined && overview.totals.every((total) => total.gained === 0 && total.posts === 0);

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
      <p className={styles.note}>{t.statsScreen.period(shownDay(filters.from), shownDay(filters.to))}</p>

      {!overview ? (
        loading && <Spinner />
      ) : (
        <>
          {empty ? (
            <p className={styles.empty}>{t.statsScreen.overviewEmpty}</p>
          ) : (
            <StatsOverviewPanel overview={overview} loading={loading} />
          )}

          <section aria-labelledby={topTitleId} aria-busy={loading}>
            <h2 id={topTitleId} className={styles.sectionTitle}>
              {t.statsScreen.top}
            </h2>
            <p className={styles.note}>{t.statsScreen.topPeriod(shownDay(filters.from), shownDay(filters.to))}</p>
            {figures.top.videos.length === 0 ? (
              <p className={styles.note}>{t.statsScreen.topEmpty}</p>
            ) : (
              <DataTable
                columns={topColumns}
                rows={figures.top.videos.map((video, index) => ({ ...video, rank: index + 1 }))}
                rowKey={(video) => video.videoId}
                loading={loading}
              />
            )}
          </section>

          {!empty && (
            <section aria-labelledby={profilesTitleId} aria-busy={loading}>
              <h2 id={profilesTitleId} className={styles.sectionTitle}>
                {t.statsScreen.profilesTitle}
              </h2>
              {overview.profiles.length === 0 ? (
                <p className={styles.note}>{t.statsScreen.profilesEmpty}</p>
              ) : (
                <DataTable
                  columns={profileColumns}
                  rows={overview.profiles.map((profile, index) => ({ ...profile, rank: index + 1 }))}
                  rowKey={(profile) => profile.account?.id ?? 0}
                  loading={loading}
                />
              )}
            </section>
          )}
        </>
      )}

      {exporting !== 'closed' && <ExportDialog actor={actor} />}
    </Page>
  );
}

/**
 * The export of the page's figures: it names the filters it exports and downloads them at once,
 * or shows their fields to export others.
 */
function ExportDialog({ actor }: { actor: ActorRefFrom<typeof statsOverviewMachine> }) {
  const fields = useRef<HTMLDivElement>(null);
  const { choices, exported, exportChanging, exportError } = useSelector(actor, (snapshot) => snapshot.context);
  const downloading = useSelector(actor, (snapshot) => snapshot.matches({ export: 'downloading' }));
  const filters = exported!;
  const busyLabel = downloading ? t.statsScreen.exportRunning : undefined;
  const cancel = (
    <Button variant="secondary" onClick={() => actor.send({ type: 'export.cancel' })}>
      {t.confirm.cancel}
    </Button>
  );

  // The fields replace the button that asked for them: the focus goes to the first.
  useEffect(() => {
    if (exportChanging) fields.current?.querySelector('input')?.focus();
  }, [exportChanging]);

  return (
    <Dialog title={t.statsScreen.exportTitle} description={t.statsScreen.exportText} onClose={() => actor.send({ type: 'export.cancel' })}>
      {exportError ? <LoadError error={exportError} /> : null}
      {exportChanging ? (
        <div ref={fields}>
          <StatsFiltersFields
            filters={filters}
            choices={choices}
            submitLabel={t.statsScreen.exportSubmit}
            busyLabel={busyLabel}
            onSubmit={(asked) => actor.send({ type: 'export.submit', filters: asked })}
            actions={cancel}
            layout="dialog"
          />
        </div>
      ) : (
        <>
          <p className={styles.exportLead}>{t.statsScreen.exportPageFilters}</p>
          <ExportedFilters filters={filters} choices={choices} />
          <div className={styles.dialogButtons}>
            <Button variant="secondary" className={styles.exportChange} onClick={() => actor.send({ type: 'export.change' })}>
              {t.statsScreen.exportChange}
            </Button>
            {cancel}
            <Button
              disabled={busyLabel !== undefined}
              aria-busy={busyLabel !== undefined}
              onClick={() => actor.send({ type: 'export.submit', filters })}
            >
              {busyLabel ?? t.statsScreen.exportSubmit}
            </Button>
          </div>
        </>
      )}
    </Dialog>
  );
}

/** The filters an export takes, in words: the period, the profile or group, the platform. */
function ExportedFilters({ filters, choices }: { filters: StatsFilters; choices: StatsChoices | null }) {
  const [kind, id] = filters.scope.split(':');
  // Before the choices arrive, a profile or group is named by its number.
  const scope =
    kind === 'account'
      ? (choices?.accounts.find((account) => String(account.id) === id)?.title ?? t.accounts.optionTitle(Number(id), ''))
      : kind === 'group'
        ? (choices?.groups.find((group) => String(group.id) === id)?.name ?? t.calendar.groupOption(Number(id)))
        : t.statsScreen.allProfiles;
  return (
    <dl className={styles.exported}>
      <dt>{t.stats.period}</dt>
      <dd>{t.statsScreen.period(shownDay(filters.from), shownDay(filters.to))}</dd>
      <dt>{t.statsScreen.scope}</dt>
      <dd>{scope}</dd>
      <dt>{t.statsScreen.platform}</dt>
      <dd>{filters.platform ? t.platform.names[filters.platform] : t.statsScreen.allPlatforms}</dd>
    </dl>
  );
}
