import { lazy, Suspense, useCallback, useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { CalendarDays } from 'lucide-react';
import { kyivWallTime, wallTimePattern } from '../lib/kyiv-time';
import * as t from '../lib/i18n';
import { Spinner } from './spinner';
import { useOutsideClick } from './use-outside-click';
import styles from './date-time-field.module.css';

// The month (react-day-picker with date-fns, about 22 KB compressed) is fetched when a calendar is
// about to open, not with every form that has a date: a phone on slow 4G draws the form sooner
// (docs/benchmarks.md, bench:lighthouse). Pointing at or focusing the button starts the fetch.
const loadDayCalendar = () => import('./day-calendar');
const DayCalendar = lazy(() => loadDayCalendar().then((module) => ({ default: module.DayCalendar })));
const fetchDayCalendar = () => void loadDayCalendar();

const hours = Array.from({ length: 24 }, (_, hour) => String(hour).padStart(2, '0'));
const minutes = Array.from({ length: 60 }, (_, minute) => String(minute).padStart(2, '0'));
const typedDayPattern = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/;

interface DateTimeFieldProps {
  label: string;
  /** `YYYY-MM-DDTHH:mm` in Kyiv time, or '' for no date; `YYYY-MM-DD` without `time`. */
  value: string;
  onChange: (value: string) => void;
  disabled?: boolean;
  error?: string;
  /** False for a day alone: no hour and minute lists. */
  time?: boolean;
}

const dayValuePattern = /^\d{4}-\d{2}-\d{2}$/;

/** `YYYY-MM-DD` as operators read it: `DD.MM.YYYY`. */
function shownDay(day: string): string {
  const [year, month, date] = day.split('-');
  return day ? `${date}.${month}.${year}` : '';
}

/** A typed `D.M.YYYY` as `YYYY-MM-DD` if such a day exists, else null. */
function typedDay(text: string): string | null {
  const parts = typedDayPattern.exec(text.trim());
  if (!parts) return null;
  const [year, month, date] = [Number(parts[3]), Number(parts[2]), Number(parts[1])];
  const check = new Date(year, month - 1, date);
  if (check.getFullYear() !== year || check.getMonth() !== month - 1 || check.getDate() !== date) return null;
  return `${parts[3]}-${String(month).padStart(2, '0')}-${String(date).padStart(2, '0')}`;
}

// The calendar counts plain days: a day is held as the browser's local midnight of that date, so
// neither the browser's time zone nor a clock change can move it.
const dayAsDate = (day: string) => {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(year, month - 1, date);
};
const dateAsDay = (date: Date) =>
  `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;

const kyivToday = () => dayAsDate(kyivWallTime(Date.now()).slice(0, 10));

/** Space kept between the calendar and the field, and between the calendar and the screen's edges. */
const calendarGap = 4;
const screenMargin = 8;

/**
 * Where the calendar opens so that it is on the screen: below the field, or above it when there is
 * no room below and more above; moved left when the field is near the right edge. The top of the
 * screen is under the page's scroll padding (a phone's fixed top bar sets it).
 */
function calendarPlacement(field: DOMRect, calendar: { width: number; height: number }) {
  const screenTop = parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop) || 0;
  const roomBelow = window.innerHeight - field.bottom - calendarGap - screenMargin;
  const roomAbove = field.top - screenTop - calendarGap - screenMargin;
  const above = calendar.height > roomBelow && roomAbove > roomBelow;
  const overRight = field.left + calendar.width - (document.documentElement.clientWidth - screenMargin);
  const left = Math.max(screenMargin - field.left, Math.min(0, -overRight));
  return { above, left };
}

/**
 * A Kyiv date and time whatever the browser's language or time zone: the day typed as dd.mm.yyyy
 * or picked in a Monday-first Ukrainian calendar (day-calendar.tsx), the time
 * from hour and minute lists on a 24-hour clock (or no time: a Kyiv day).
 */
export function DateTimeField({ label, value, onChange, disabled, error, time = true }: DateTimeFieldProps) {
  const errorId = useId();
  const hintId = useId();
  const parts = time ? wallTimePattern.exec(value) : null;
  const day = time ? (parts?.[1] ?? '') : dayValuePattern.test(value) ? value : '';
  // A time picked before a day waits here until a day makes it a date; with no day none is shown.
  const [pendingTime, setPendingTime] = useState({ hour: '', minute: '' });
  const hour = parts?.[2] ?? pendingTime.hour;
  const minute = parts?.[3] ?? pendingTime.minute;
  // What is being typed, kept while it is the text of the value the form holds.
  const [draft, setDraft] = useState<{ text: string; forValue: string } | null>(null);
  const dayText = draft && draft.forValue === value ? draft.text : shownDay(day);
  const [typedWrong, setTypedWrong] = useState(false);
  // Kyiv's today as of the calendar's opening (Kyiv may be a day ahead of or behind the browser).
  const [calendarToday, setCalendarToday] = useState<Date | null>(null);
  const calendarOpen = calendarToday !== null;
  // Whether the open calendar's month is drawn (its code may still be on the way).
  const [monthDrawn, setMonthDrawn] = useState(false);
  // Where the open calendar fits, measured before it is painted; null until then.
  const [placement, setPlacement] = useState<ReturnType<typeof calendarPlacement> | null>(null);
  const setCalendarOpen = (open: boolean) => {
    setCalendarToday(open ? kyivToday() : null);
    setMonthDrawn(false);
    setPlacement(null);
  };
  const onMonthDrawn = useCallback(() => setMonthDrawn(true), []);
  const root = useRef<HTMLDivElement>(null);
  const calendarButton = useRef<HTMLButtonElement>(null);
  const popover = useRef<HTMLDivElement>(null);

  useLayoutEffect(() => {
    if (!monthDrawn || placement || !root.current || !popover.current) return;
    const { width, height } = popover.current.getBoundingClientRect();
    setPlacement(calendarPlacement(root.current.getBoundingClientRect(), { width, height }));
  }, [monthDrawn, placement]);

  // The dialog pattern: the focus moves onto the grid's day for the arrow keys, once the calendar is
  // where it fits (focused where it first drew, below the screen's edge, it would scroll the page).
  useEffect(() => {
    if (placement) popover.current?.querySelector<HTMLElement>('[role="grid"] button[tabindex="0"]')?.focus();
  }, [placement]);

  const closeCalendar = useCallback(() => setCalendarToday(null), []);
  useOutsideClick(root, calendarOpen, closeCalendar);

  const valueOf = (nextDay: string, clock: { hour: string; minute: string }) => {
    if (!time) return nextDay;
    return nextDay ? `${nextDay}T${clock.hour || '12'}:${clock.minute || '00'}` : '';
  };

  const change = (next: { day?: string; hour?: string; minute?: string }) => {
    const clock = { hour: next.hour ?? hour, minute: next.minute ?? minute };
    setPendingTime(clock);
    onChange(valueOf(next.day ?? day, clock));
  };

  const type = (text: string) => {
    const nextValue = valueOf(typedDay(text) ?? '', { hour, minute });
    setDraft({ text, forValue: nextValue });
    setTypedWrong(false);
    onChange(nextValue);
  };

  const pick = (date: Date | undefined) => {
    if (date) change({ day: dateAsDay(date) });
    setCalendarOpen(false);
    calendarButton.current?.focus();
  };

  const onCalendarKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.stopPropagation();
    setCalendarOpen(false);
    calendarButton.current?.focus();
  };

  const described = [error ? errorId : '', typedWrong ? hintId : ''].filter(Boolean).join(' ');

  return (
    <fieldset className={styles.field} disabled={disabled}>
      <legend className={styles.legend}>
        {label} <span className={styles.zone}>{t.dates.kyivTime}</span>
      </legend>
      <div className={styles.controls}>
        <div className={styles.dayBox} ref={root}>
          <input
            type="text"
            inputMode="numeric"
            autoComplete="off"
            className={styles.day}
            aria-label={t.dates.day(label)}
            placeholder={t.dates.dayPlaceholder}
            value={dayText}
            onChange={(event) => type(event.target.value)}
            onBlur={() => setTypedWrong(dayText.trim() !== '' && typedDay(dayText) === null)}
            aria-invalid={error || typedWrong ? true : undefined}
            aria-describedby={described || undefined}
          />
          <button
            ref={calendarButton}
            type="button"
            className={styles.calendarButton}
            aria-label={t.dates.openCalendar(label)}
            aria-haspopup="dialog"
            aria-expanded={calendarOpen}
            onClick={() => setCalendarOpen(!calendarOpen)}
            onPointerEnter={fetchDayCalendar}
            onFocus={fetchDayCalendar}
          >
            <CalendarDays size={18} aria-hidden />
          </button>
          {calendarToday && (
            // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions -- Escape closes the dialog from any of its buttons
            <div
              ref={popover}
              className={`${styles.popover} ${placement?.above ? styles.above : ''}`}
              style={{ left: placement?.left ?? 0 }}
              role="dialog"
              aria-label={t.dates.calendar(label)}
              onKeyDown={onCalendarKeyDown}
            >
              <Suspense fallback={<Spinner />}>
                <DayCalendar today={calendarToday} selected={day ? dayAsDate(day) : undefined} onSelect={pick} onDrawn={onMonthDrawn} />
              </Suspense>
            </div>
          )}
        </div>
        {time && (
          <span className={styles.clock}>
            <select
              className={styles.time}
              aria-label={t.dates.hour(label)}
              value={hour}
              onChange={(event) => change({ hour: event.target.value })}
            >
              {hour === '' && <option value="">{t.dates.noTime}</option>}
              {hours.map((each) => (
                <option key={each}>{each}</option>
              ))}
            </select>
            <span aria-hidden>:</span>
            <select
              className={styles.time}
              aria-label={t.dates.minute(label)}
              value={minute}
              onChange={(event) => change({ minute: event.target.value })}
            >
              {minute === '' && <option value="">{t.dates.noTime}</option>}
              {minutes.map((each) => (
                <option key={each}>{each}</option>
              ))}
            </select>
          </span>
        )}
      </div>
      {typedWrong && (
        <span id={hintId} className={styles.error}>
          {t.dates.dayFormat}
        </span>
      )}
      {error && (
        <span id={errorId} className={styles.error} role="alert">
          {error}
        </span>
      )}
    </fieldset>
  );
}
