import dayjs from 'dayjs';
import 'dayjs/locale/uk';
import utc from 'dayjs/plugin/utc';
import timezone from 'dayjs/plugin/timezone';

dayjs.extend(utc);
dayjs.extend(timezone);
dayjs.locale('uk');

export const displayTimezone = 'Europe/Kiev';

/** A moment as operators read it: uk-UA, Europe/Kiev, 24-hour clock. */
export function formatDate(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const moment = dayjs(value);
  return moment.isValid() ? moment.tz(displayTimezone).format('DD.MM.YYYY HH:mm') : '';
}

/** A publish date as the form holds it: `YYYY-MM-DDTHH:mm`, Kyiv wall time, or '' for none. */
export const wallTimePattern = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})$/;

/**
 * Whether a Kyiv wall time lies in the past. The minute being typed still counts as now, so a
 * date picked for "this minute" is taken rather than refused a few seconds later.
 */
export function isPastWallTime(value: string, now = Date.now()): boolean {
  const moment = dayjs.tz(value, displayTimezone);
  return moment.isValid() && moment.valueOf() < now - 60_000;
}
