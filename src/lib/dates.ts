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
