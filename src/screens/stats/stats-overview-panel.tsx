import { useId } from 'react';
import type { PlatformTotals, StatsOverview } from '../../lib/contract';
import * as t from '../../lib/i18n';
import { platformOf } from '../../lib/platforms';
import { ChartWithTable } from '../../components/chart-with-table';
import type { Column } from '../../components/data-table';
import styles from './stats-screen.module.css';

const { figure } = t.statsScreen;

/** One tile: a platform's (or every platform's) new views, likes and comments, and posts published. */
function TotalsTile({ title, totals, colour }: { title: string; totals: Omit<PlatformTotals, 'platform'>; colour?: string }) {
  return (
    <li className={styles.tile}>
      <h3 className={styles.tileTitle}>
        {colour && (
          <svg className={styles.tileSwatch} viewBox="0 0 10 10" aria-hidden>
            <circle cx="5" cy="5" r="5" fill={colour} />
          </svg>
        )}
        {title}
      </h3>
      <p className={styles.tileViews}>
        <span className={styles.tileFigure}>{figure(totals.gained)}</span> {t.statsScreen.newViews(totals.gained)}
      </p>
      <dl className={styles.tileFacts}>
        <div>
          <dt>{t.statsScreen.newLikes}</dt>
          <dd>{figure(totals.likes)}</dd>
        </div>
        <div>
          <dt>{t.statsScreen.newComments}</dt>
          <dd>{figure(totals.comments)}</dd>
        </div>
        <div>
          <dt>{t.statsScreen.postsPublished}</dt>
          <dd>{figure(totals.posts)}</dd>
        </div>
      </dl>
    </li>
  );
}

/** The chart's figures as a table, a row per day: what the canvas shows, for the keyboard and screen readers. */
function dailyColumns(overview: StatsOverview): Column<number>[] {
  return [
    { header: t.statsScreen.columnDay, cell: (index) => overview.days[index]!.split('-').reverse().join('.') },
    ...overview.daily.map(({ platform, values }) => ({
      header: t.platform.names[platform],
      cell: (index: number) => figure(values[index] ?? 0),
      align: 'right' as const,
    })),
  ];
}

/** The period's totals as tiles, the sum of every platform first when there are several, and each day's new views. */
export function StatsOverviewPanel({ overview, loading }: { overview: StatsOverview; loading: boolean }) {
  const titleId = useId();
  const sum = overview.totals.reduce(
    (all, total) => ({
      gained: all.gained + total.gained,
      likes: all.likes + total.likes,
      comments: all.comments + total.comments,
      posts: all.posts + total.posts,
    }),
    { gained: 0, likes: 0, comments: 0, posts: 0 },
  );

  return (
    <section aria-labelledby={titleId} aria-busy={loading}>
      <h2 id={titleId} className={styles.sectionTitle}>
        {t.statsScreen.totals}
      </h2>
      <ul className={styles.tiles}>
        {overview.totals.length > 1 && <TotalsTile title={t.statsScreen.allPlatformsTotal} totals={sum} />}
        {overview.totals.map((total) => (
          <TotalsTile
            key={total.platform}
            title={t.platform.names[total.platform]}
            totals={total}
            colour={platformOf(total.platform).colour}
          />
        ))}
      </ul>
      {overview.daily.length > 0 && (
        <ChartWithTable at={overview.at} lines={overview.daily} reading="daily" columns={dailyColumns(overview)} />
      )}
    </section>
  );
}
