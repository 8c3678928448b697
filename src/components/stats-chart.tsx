import { useEffect, useId, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { PlatformName, StatsReport } from '../lib/contract';
import { dayjs } from '../lib/dates';
import { displayTimezone, formatDate } from '../lib/kyiv-time';
import { t } from '../lib/i18n';
import { platformOf } from '../lib/platforms';
import styles from './stats-chart.module.css';

const chartHeight = 240;

/** Axis labels in Kyiv time: dates once they are a day or more apart, hours within a day's chart, else both. */
function axisFormat(spacingSeconds: number, days: number): string {
  if (spacingSeconds >= 86_400) return 'DD.MM';
  return days <= 1 ? 'HH:mm' : 'DD.MM HH:mm';
}

function chartOptions(report: StatsReport, width: number, onHover: (index: number | null) => void): uPlot.Options {
  return {
    width,
    height: chartHeight,
    // The legend under the chart is the component's own, in Ukrainian, with the moment under the cursor.
    legend: { show: false },
    hooks: { setCursor: [(chart) => onHover(chart.cursor.idx ?? null)] },
    tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), displayTimezone),
    scales: { y: { range: (_chart, _min, max) => [0, max > 0 ? Math.ceil(max * 1.1) : 1] } },
    axes: [
      {
        space: 80,
        values: (_chart, splits, _axis, _space, spacing) =>
          splits.map((seconds) =>
            dayjs(seconds * 1000)
              .tz(displayTimezone)
              .format(axisFormat(spacing, report.days)),
          ),
      },
      { size: 60 },
    ],
    series: [
      { label: t.videoTable.columnDate, value: (_chart, seconds) => (seconds === null ? '' : formatDate(seconds * 1000)) },
      ...report.views.map(({ platform }) => ({
        label: t.platform.names[platform],
        stroke: platformOf(platform).colour,
        // Views are a running total, read at syncs: steps hold each figure until the next sync.
        fill: `${platformOf(platform).colour}1a`,
        paths: uPlot.paths.stepped!({ align: 1 }),
        width: 2,
        dash: [...platformOf(platform).dash],
        points: { show: report.at.length <= 2 },
      })),
    ],
  };
}

/** Views over time per platform, drawn by uPlot; the panel's totals tables say the same in text. */
export function StatsChart({ report }: { report: StatsReport }) {
  const captionId = useId();
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const [hovered, setHovered] = useState<number | null>(null);
  // The platforms hidden from the chart drawn for this report: a new report draws every line again.
  const [hiddenIn, setHiddenIn] = useState<{ report: StatsReport; platforms: PlatformName[] } | null>(null);
  const hidden = hiddenIn?.report === report ? hiddenIn.platforms : [];

  useEffect(() => {
    const element = box.current!;
    const data: uPlot.AlignedData = [report.at, ...report.views.map((series) => series.values)];
    const chart = new uPlot(chartOptions(report, element.clientWidth, setHovered), data, element);
    plot.current = chart;
    const resize = new ResizeObserver(() => chart.setSize({ width: element.clientWidth, height: chartHeight }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
      plot.current = null;
    };
  }, [report]);

  // One platform's line can cover another's where their counts run close: the legend hides and shows each.
  const toggle = (platform: PlatformName) => {
    const shown = hidden.includes(platform);
    plot.current?.setSeries(report.views.findIndex((series) => series.platform === platform) + 1, { show: shown });
    setHiddenIn({ report, platforms: shown ? hidden.filter((each) => each !== platform) : [...hidden, platform] });
  };

  return (
    <figure className={styles.chart} aria-labelledby={captionId}>
      <figcaption id={captionId} className={styles.caption}>
        {t.stats.chart}
      </figcaption>
      <div ref={box} className={styles.plot} data-testid="stats-chart" />
      <ChartLegend report={report} index={hovered} hidden={hidden} onToggle={toggle} />
    </figure>
  );
}

/** Each platform's colour and its views at the moment under the cursor, or the latest when none is. */
function ChartLegend({
  report,
  index,
  hidden,
  onToggle,
}: {
  report: StatsReport;
  index: number | null;
  hidden: PlatformName[];
  onToggle: (platform: PlatformName) => void;
}) {
  const at = index ?? report.at.length - 1;
  if (at < 0) return null;
  return (
    <div className={styles.legend} aria-live="polite">
      <span className={styles.moment}>{index === null ? t.screens.chartLatest : formatDate(report.at[at]! * 1000)}</span>
      <ul className={styles.series}>
        {report.views.map(({ platform, values }) => (
          <li key={platform}>
            <button type="button" className={styles.toggle} aria-pressed={!hidden.includes(platform)} onClick={() => onToggle(platform)}>
              <svg className={styles.swatch} viewBox="0 0 20 10" aria-hidden>
                <line
                  x1="0"
                  y1="5"
                  x2="20"
                  y2="5"
                  stroke={platformOf(platform).colour}
                  strokeWidth="2"
                  strokeDasharray={platformOf(platform).dash.join(' ')}
                />
              </svg>
              {t.screens.chartViews(t.platform.names[platform], values[at] ?? 0)}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
