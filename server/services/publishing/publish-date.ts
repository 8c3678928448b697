import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc';
import timezone from 'dayjs/plugin/timezone';
import { t } from '../../messages';
import { HttpError } from '../../http-error';
import { kyivWallTime, yearAheadWallTime } from '../../../src/lib/kyiv-time';

dayjs.extend(utc);
dayjs.extend(timezone);

/** Operators schedule in the time they live by, whatever the server's own zone is. */
export const publishTimezone = 'Europe/Kiev';

const wallTime = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/;
const withOffset = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i;

/**
 * A publish date as the form sends it: `YYYY-MM-DDTHH:mm` is Europe/Kiev wall time (the
 * date-time input has no zone), a time with an offset is taken as it is, blank means none.
 */
export function parsePublishDate(value: string | null | undefined): Date | null {
  if (value === null || value === undefined || value.trim() === '') return null;
  const text = value.trim();
  let date: Date | null = null;
  if (!isCalendarTime(text)) date = null;
  else if (withOffset.test(text)) date = new Date(text);
  else if (wallTime.test(text)) date = dayjs.tz(text.replace(' ', 'T'), publishTimezone).toDate();
  if (!date || Number.isNaN(date.getTime())) throw new HttpError(400, `${t.publish.badDate}: ${text}`);
  return date;
}

/**
 * A publish date from now to a year ahead (src/lib/kyiv-time.ts yearAheadWallTime, as the form
 * checks it): the minute being typed still counts as now.
 */
export function futurePublishDate(value: string | null | undefined, now: number): Date | null {
  const date = parsePublishDate(value);
  if (date && date.getTime() < now - 60_000) throw new HttpError(400, t.publish.pastDate);
  if (date && kyivWallTime(date.getTime()) > yearAheadWallTime(now)) throw new HttpError(400, t.publish.tooFarAhead);
  return date;
}

/** Parsers roll 2026-13-45 over into another date; a mistyped date must be refused instead. */
function isCalendarTime(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})/.exec(text);
  if (!match) return false;
  const [year, month, day, hour, minute] = match.slice(1).map(Number) as [number, number, number, number, number];
  const probe = new Date(Date.UTC(year, month - 1, day));
  return probe.getUTCMonth() === month - 1 && probe.getUTCDate() === day && hour < 24 && minute < 60;
}
