/**
 * The product's clock: Kyiv wall time, read with the browser's (or Node's) own Intl rather than a
 * date library, so the forms' schemas and the shell, which the login screen loads, do not bring
 * dayjs with them (only the calendar and the chart use it, through dates.ts).
 */

export const displayTimezone = 'Europe/Kiev';

/** A publish date as the form holds it: `YYYY-MM-DDTHH:mm`, Kyiv wall time, or '' for none. */
export const wallTimePattern = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})$/;

const kyivMinute = new Intl.DateTimeFormat('en-GB', {
  timeZone: displayTimezone,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** The year, month, day, hour and minute of a moment in Kyiv, two digits each (four for the year). */
function kyivParts(moment: Date | number): Record<'year' | 'month' | 'day' | 'hour' | 'minute', string> {
  const parts = Object.fromEntries(kyivMinute.formatToParts(moment).map(({ type, value }) => [type, value]));
  return { year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour!, minute: parts.minute! };
}

/** A moment as operators read it: Kyiv time, `DD.MM.YYYY HH:mm`, 24-hour clock; '' for none. */
export function formatDate(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const moment = new Date(value);
  if (Number.isNaN(moment.getTime())) return '';
  const { year, month, day, hour, minute } = kyivParts(moment);
  return `${day}.${month}.${year} ${hour}:${minute}`;
}

/**
 * From one moment to another as operators read a span, in Kyiv: one moment as formatDate says it,
 * one day with its two times (`DD.MM.YYYY HH:mm–HH:mm`), or two days (`DD.MM.YYYY – DD.MM.YYYY`); '' for none.
 */
export function formatSpan(from: string | null, to: string | null): string {
  if (!from || !to) return formatDate(from ?? to);
  const [first, last] = [kyivParts(new Date(from)), kyivParts(new Date(to))];
  const day = (parts: typeof first) => `${parts.day}.${parts.month}.${parts.year}`;
  if (day(first) !== day(last)) return `${day(first)} – ${day(last)}`;
  const [start, end] = [`${first.hour}:${first.minute}`, `${last.hour}:${last.minute}`];
  return start === end ? `${day(first)} ${start}` : `${day(first)} ${start}–${end}`;
}

/**
 * A moment's Kyiv clock time `HH:mm`, and its day `DD.MM.YYYY` unless that is today in Kyiv (then
 * ''): a time alone would read as today's beside a date column that says another day.
 */
export function formatMoment(value: string, now: number): { time: string; day: string } {
  const { year, month, day, hour, minute } = kyivParts(new Date(value));
  const today = kyivParts(now);
  const isToday = year === today.year && month === today.month && day === today.day;
  return { time: `${hour}:${minute}`, day: isToday ? '' : `${day}.${month}.${year}` };
}

/** The Kyiv wall time of a moment, to the minute, as the form holds dates. */
export function kyivWallTime(moment: number): string {
  const { year, month, day, hour, minute } = kyivParts(moment);
  return `${year}-${month}-${day}T${hour}:${minute}`;
}

/**
 * Whether a Kyiv wall time lies in the past. The minute being typed still counts as now, so a
 * date picked for "this minute" is taken rather than refused a few seconds later.
 */
export function isPastWallTime(value: string, now: number): boolean {
  return wallTimePattern.test(value) && value < kyivWallTime(now);
}

/**
 * The Kyiv wall time a year after `now`: the latest a publication may be planned for, so a date
 * typed with a wrong year (9999-12-31) is refused rather than left waiting outside every calendar.
 */
export function yearAheadWallTime(now: number): string {
  const wall = kyivWallTime(now);
  return `${Number(wall.slice(0, 4)) + 1}${wall.slice(4)}`;
}
