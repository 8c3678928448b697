import styles from './segmented-buttons.module.css';

interface SegmentedButtonsProps<Value extends string | number> {
  label: string;
  options: readonly Value[];
  selected: Value;
  labelOf: (value: Value) => string;
  onPick: (value: Value) => void;
}

/** A row of joined toggle buttons of which one is pressed: the calendar's view, the chart's period. */
export function SegmentedButtons<Value extends string | number>({
  label,
  options,
  selected,
  labelOf,
  onPick,
}: SegmentedButtonsProps<Value>) {
  return (
    <div className={styles.group} role="group" aria-label={label}>
      {options.map((option) => (
        <button key={option} type="button" className={styles.segment} aria-pressed={selected === option} onClick={() => onPick(option)}>
          {labelOf(option)}
        </button>
      ))}
    </div>
  );
}
