import dayjs from 'dayjs';
import 'dayjs/locale/uk';
import utc from 'dayjs/plugin/utc';
import timezone from 'dayjs/plugin/timezone';

dayjs.extend(utc);
dayjs.extend(timezone);
dayjs.locale('uk');

/** dayjs with the UTC and time-zone plugins and the Ukrainian locale: the calendar's and the chart's date arithmetic. */
export { dayjs };
