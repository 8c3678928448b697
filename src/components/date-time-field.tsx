import { useId, useState } from 'react';
import { wallTimePattern } from '../lib/kyiv-time';
import { t } from '../lib/i18n';
import styles from './date-time-field.module.css';

const hours = Array.from({ length: 24 }, (_, hour) => String(hour).padStart(2, '0'));
const minutes = Array.from({ length: 60 }, (_, minute) => String(minute).padStart(2, '0'));
const defaultTime = { hour: '12', minute: '00' };

interface DateTimeFieldProps {
  label: string;
  /** `YYYY-MM-DDTHH:mm` in Kyiv time, or '' for no date. */
  value: string;
  onChange: (value: string) => void;
  disabled?: boolean;
  error?: string;
}

/**
 * A Kyiv date and time on a 24-hour clock whatever the browser's language: a day picker and hour
 * and minute lists, which a browser's own date-time input would show with AM/PM in English.
 */
export function DateTimeField({ label, value, onChange, disabled, error }: DateTimeFieldProps) {
  const errorId = useId();
  const parts = wallTimePattern.exec(value);
  // The time picked before a day is kept here until a day makes it a date.
  const [pendingTime, setPendingTime] = useState(defaultTime);
  const day = parts?.[1] ?? '';
  const hour = parts?.[2] ?? pendingTime.hour;
  const minute = parts?.[3] ?? pendingTime.minute;
  const change = (next: { day?: string; hour?: string; minute?: string }) => {
    const time = { hour: next.hour ?? hour, minute: next.minute ?? minute };
    setPendingTime(time);
    const nextDay = next.day ?? day;
    onChange(nextDay ? `${nextDay}T${time.hour}:${time.minute}` : '');
  };
  const described = error ? { 'aria-invalid': true, 'aria-describedby': errorId } : {};

  return (
    <fieldset className={styles.field} disabled={disabled}>
      <legend className={styles.legend}>
        {label} <span className={styles.zone}>{t.dates.kyivTime}</span>
      </legend>
      <div className={styles.controls}>
        <input
          type="date"
          className={styles.day}
          aria-label={t.dates.day(label)}
          value={day}
          onChange={(event) => change({ day: event.target.value })}
          {...described}
        />
        <span className={styles.clock}>
          <select
            className={styles.time}
            aria-label={t.dates.hour(label)}
            value={hour}
            onChange={(event) => change({ hour: event.target.value })}
          >
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
            {minutes.map((each) => (
              <option key={each}>{each}</option>
            ))}
          </select>
        </span>
      </div>
      {error && (
        <span id={errorId} className={styles.error} role="alert">
          {error}
        </span>
      )}
    </fieldset>
  );
}
