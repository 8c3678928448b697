/**
 * The product's clock: Kyiv wall time, read with the browser's (or Node's) own Intl rather than a
 * date library, so the forms' schemas and the shell, which the login screen loads, do not bring
 * dayjs with them (only the calendar and the chart use it, through dates.ts).
 */

export const displayTimezone = 'Europe/Kiev';

/** A publish date as the form holds it: `YYYY-MM-DDTHH:mm`, Kyiv wall time, or '' for none. */
export const wallTimePattern = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})$/;

// sv-SE writes dates as YYYY-MM-DD HH:mm, the order of the form's value.
const kyivMinute = new Intl.DateTimeFormat('sv-SE', {
  timeZone: displayTimezone,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

const kyivReading = new Intl.DateTimeFormat('uk-UA', {
  timeZone: displayTimezone,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** A moment as operators read it: Kyiv time, `DD.MM.YYYY HH:mm`, 24-hour clock; '' for none. */
export function formatDate(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const moment = new Date(value);
  if (Number.isNaN(moment.getTime())) return '';
  const part = Object.fromEntries(kyivReading.formatToParts(moment).map(({ type, value: text }) => [type, text]));
  return `${part.day}.${part.month}.${part.year} ${part.hour}:${part.minute}`;
}

/** The Kyiv wall time of a moment, to the minute, as the form holds dates. */
export function kyivWallTime(moment: number): string {
  return kyivMinute.format(moment).replace(' ', 'T');
}

/**
 * Whether a Kyiv wall time lies in the past. The minute being typed still counts as now, so a
 * date picked for "this minute" is taken rather than refused a few seconds later.
 */
export function isPastWallTime(value: string, now = Date.now()): boolean {
  return wallTimePattern.test(value) && value < kyivWallTime(now);
}
