import { dayjs } from './dates';
import { displayTimezone, kyivWallTime } from './kyiv-time';

export type CalendarView = 'week' | 'month';

/** A Kyiv calendar day, `YYYY-MM-DD`. */
export type Day = string;

const dayFormat = 'YYYY-MM-DD';

const hourMs = 3_600_000;
/** Kyiv's offset from UTC by UTC hour: Kyiv changes its clocks on the hour, so an hour has one offset. */
const kyivOffsets = new Map<number, number>();

/**
 * A moment's Kyiv wall time `YYYY-MM-DDTHH:mm`, the offset of its hour read once with Intl: a week
 * of 1 260 posts asks for days and times thousands of times, which dayjs's zones (a formatter
 * built on every call) took over a second to answer.
 */
function kyivWall(moment: string | number | Date): string {
  const at = new Date(moment).getTime();
  const hour = Math.floor(at / hourMs);
  let offset = kyivOffsets.get(hour);
  if (offset === undefined) {
    offset = Date.parse(`${kyivWallTime(hour * hourMs)}Z`) - hour * hourMs;
    if (kyivOffsets.size > 50_000) kyivOffsets.clear();
    kyivOffsets.set(hour, offset);
  }
  return new Date(at + offset).toISOString().slice(0, 16);
}

/** The Kyiv day a moment falls on. */
export function kyivDay(moment: string | number | Date): Day {
  return kyivWall(moment).slice(0, 10);
}

/** The Kyiv wall time of a moment, `HH:mm`. */
export function kyivTime(moment: string | number | Date): string {
  return kyivWall(moment).slice(11);
}

/** Plain calendar arithmetic on days; noon keeps a change of summer time from moving the date. */
const onDay = (day: Day) => dayjs.utc(`${day}T12:00:00Z`);

/** Monday of the week the day is in. */
function mondayOf(day: Day): dayjs.Dayjs {
  const date = onDay(day);
  return date.subtract((date.day() + 6) % 7, 'day');
}

/** The days a view shows: a week from Monday, or the whole weeks that hold a month. */
export function daysOf(view: CalendarView, anchor: Day): Day[] {
  const first = view === 'week' ? mondayOf(anchor) : mondayOf(onDay(anchor).startOf('month').format(dayFormat));
  const monthEnd = onDay(anchor).endOf('month');
  const count = view === 'week' ? 7 : Math.ceil((monthEnd.diff(first, 'day') + 1) / 7) * 7;
  return Array.from({ length: count }, (_, index) => first.add(index, 'day').format(dayFormat));
}

/** The same place one period earlier (-1) or later (+1). */
export function shiftAnchor(view: CalendarView, anchor: Day, by: -1 | 1): Day {
  return onDay(anchor)
    .add(by, view === 'week' ? 'week' : 'month')
    .format(dayFormat);
}

/** The instants a list of days covers: from the first day's Kyiv midnight to the midnight after the last. */
export function rangeOf(days: Day[]): { from: string; to: string } {
  const midnight = (day: Day) => dayjs.tz(`${day}T00:00`, displayTimezone);
  const after = onDay(days[days.length - 1]!)
    .add(1, 'day')
    .format(dayFormat);
  return { from: midnight(days[0]!).toISOString(), to: midnight(after).toISOString() };
}

/** The title of a view: the month, or the week's first and last day. */
export function periodTitle(view: CalendarView, anchor: Day): string {
  if (view === 'month') return onDay(anchor).locale('uk').format('MMMM YYYY');
  const days = daysOf('week', anchor);
  return `${onDay(days[0]!).format('DD.MM')} – ${onDay(days[6]!).format('DD.MM.YYYY')}`;
}

/** Whether a day of a month view lies in the month shown. */
export function inMonth(day: Day, anchor: Day): boolean {
  return day.slice(0, 7) === anchor.slice(0, 7);
}

/** A day's place in its week, Monday 0 … Sunday 6. */
export function weekdayIndex(day: Day): number {
  return (onDay(day).day() + 6) % 7;
}

/** Where a post moved to `day` goes: the same Kyiv wall time on that day, `YYYY-MM-DDTHH:mm`, as the schedule's PATCH takes it. */
export function sameTimeOn(day: Day, moment: string): string {
  return `${day}T${kyivTime(moment)}`;
}

/** The moment a Kyiv wall time `YYYY-MM-DDTHH:mm` stands for, ISO. */
export function kyivMomentOf(wallTime: string): string {
  return dayjs.tz(wallTime, displayTimezone).toISOString();
}
