import { useEffect, useId, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { PlatformName } from '../lib/contract';
import { dayjs } from '../lib/dates';
import { displayTimezone, formatDate } from '../lib/kyiv-time';
import * as t from '../lib/i18n';
import { platformOf } from '../lib/platforms';
import styles from './stats-chart.module.css';

const chartHeight = 240;

/** 1, 2, 5, 10, 20, 50… up to 5·10¹⁵: the y axis's steps between its lines. */
const wholeSteps = Array.from({ length: 16 }, (_, power) => [1, 2, 5].map((step) => step * 10 ** power)).flat();

/** A line per platform: its value at each moment of the chart. */
export interface ChartLine {
  platform: PlatformName;
  values: number[];
}

/**
 * What the chart draws: `views`, the running total of views read at syncs, over a day (`hours`)
 * or longer; or `daily`, the views gained on each Kyiv day, each moment a day's start.
 */
export type ChartReading = 'views' | 'hours' | 'daily';

export interface StatsChartProps {
  /** The moments, Unix seconds, oldest first. */
  at: number[];
  lines: ChartLine[];
  reading: ChartReading;
}

/** Axis labels in Kyiv time: dates once they are a day or more apart, hours within a day's chart, else both. */
function axisFormat(spacingSeconds: number, reading: ChartReading): string {
  if (spacingSeconds >= 86_400 || reading === 'daily') return 'DD.MM';
  return reading === 'hours' ? 'HH:mm' : 'DD.MM HH:mm';
}

/** A moment of the chart as the legend names it: a day for days, else a date and time. */
const momentText = (seconds: number, reading: ChartReading) =>
  reading === 'daily' ? formatDate(seconds * 1000).slice(0, 10) : formatDate(seconds * 1000);

function chartOptions({ at, lines, reading }: StatsChartProps, width: number, onHover: (index: number | null) => void): uPlot.Options {
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
              .format(axisFormat(spacing, reading)),
          ),
      },
      // Views are whole: whole steps only, their digits grouped as Ukrainian groups them, whatever the browser's language.
      { size: 60, incrs: wholeSteps, values: (_chart, splits) => splits.map((value) => t.statsScreen.figure(value)) },
    ],
    series: [
      { label: t.videoTable.columnDate, value: (_chart, seconds) => (seconds === null ? '' : momentText(seconds, reading)) },
      ...lines.map(({ platform }) => ({
        label: t.platform.names[platform],
        stroke: platformOf(platform).colour,
        fill: `${platformOf(platform).colour}1a`,
        // Views are a running total, read at syncs: steps hold each figure until the next sync. A
        // day's gain is a figure of its own: its points joined, each day marked.
        paths: reading === 'daily' ? uPlot.paths.linear!() : uPlot.paths.stepped!({ align: 1 }),
        width: 2,
        dash: [...platformOf(platform).dash],
        // Days marked while a day has room for its mark (uPlot's spacing); a running total only when it has no line.
        points: reading === 'daily' ? { space: 12 } : { show: at.length <= 2 },
      })),
    ],
  };
}

/** Views per platform over time, drawn by uPlot; the screens that show it say the same in a table. */
export function StatsChart({ at, lines, reading }: StatsChartProps) {
  const captionId = useId();
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const [hovered, setHovered] = useState<number | null>(null);
  // The platforms hidden from the chart drawn for these lines: new lines draw every platform again.
  const [hiddenIn, setHiddenIn] = useState<{ lines: ChartLine[]; platforms: PlatformName[] } | null>(null);
  const hidden = hiddenIn?.lines === lines ? hiddenIn.platforms : [];

  useEffect(() => {
    const element = box.current!;
    const data: uPlot.AlignedData = [at, ...lines.map((line) => line.values)];
    const chart = new uPlot(chartOptions({ at, lines, reading }, element.clientWidth, setHovered), data, element);
    plot.current = chart;
    const resize = new ResizeObserver(() => chart.setSize({ width: element.clientWidth, height: chartHeight }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
      plot.current = null;
    };
  }, [at, lines, reading]);

  // One platform's line can cover another's where their counts run close: the legend hides and shows each.
  const toggle = (platform: PlatformName) => {
    const shown = hidden.includes(platform);
    plot.current?.setSeries(lines.findIndex((line) => line.platform === platform) + 1, { show: shown });
    setHiddenIn({ lines, platforms: shown ? hidden.filter((each) => each !== platform) : [...hidden, platform] });
  };

  return (
    <figure className={styles.chart} aria-labelledby={captionId}>
      <figcaption id={captionId} className={styles.caption}>
        {reading === 'daily' ? t.statsScreen.chart : t.stats.chart}
      </figcaption>
      <div ref={box} className={styles.plot} data-testid="stats-chart" />
      <ChartLegend at={at} lines={lines} reading={reading} index={hovered} hidden={hidden} onToggle={toggle} />
    </figure>
  );
}

/**
 * Each platform's colour and its figure at the moment under the cursor; when none is, the latest
 * views, or the days' gains summed over the period.
 */
function ChartLegend({
  at,
  lines,
  reading,
  index,
  hidden,
  onToggle,
}: StatsChartProps & { index: number | null; hidden: PlatformName[]; onToggle: (platform: PlatformName) => void }) {
  if (at.length === 0) return null;
  const daily = reading === 'daily';
  const figureOf = (values: number[]) =>
    index !== null ? (values[index] ?? 0) : daily ? values.reduce((sum, value) => sum + value, 0) : (values.at(-1) ?? 0);
  const moment = index !== null ? momentText(at[index]!, reading) : daily ? t.statsScreen.chartPeriodTotal : t.screens.chartLatest;
  return (
    <div className={styles.legend} aria-live="polite">
      <span className={styles.moment}>{moment}</span>
      <ul className={styles.series}>
        {lines.map(({ platform, values }) => (
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
              {daily
                ? t.statsScreen.chartGained(t.platform.names[platform], figureOf(values))
                : t.screens.chartViews(t.platform.names[platform], figureOf(values))}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
