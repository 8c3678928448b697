import { useLayoutEffect } from 'react';
import { DayPicker } from 'react-day-picker';
import { uk } from 'react-day-picker/locale/uk';
import 'react-day-picker/style.css';

interface DayCalendarProps {
  /** Kyiv's today, as a local-midnight Date (date-time-field.tsx). */
  today: Date;
  selected: Date | undefined;
  onSelect: (date: Date | undefined) => void;
  /** Told once the month is drawn, before it is painted, so the popover can be placed by its real size. */
  onDrawn: () => void;
}

/** The Monday-first Ukrainian month of DateTimeField's popover (react-day-picker, arrow keys inside). */
export function DayCalendar({ today, selected, onSelect, onDrawn }: DayCalendarProps) {
  useLayoutEffect(onDrawn, [onDrawn]);
  return (
    <DayPicker
      mode="single"
      locale={uk}
      weekStartsOn={1}
      // Six rows in every month: the calendar keeps the height it was placed by.
      fixedWeeks
      today={today}
      selected={selected}
      defaultMonth={selected ?? today}
      onSelect={onSelect}
    />
  );
}
