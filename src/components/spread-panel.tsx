import { Controller } from 'react-hook-form';
import { t } from '../lib/i18n';
import { kyivWallTime } from '../lib/kyiv-time';
import { spreadSchema, type SpreadForm } from '../lib/schemas';
import { Button } from './button';
import { DateTimeField } from './date-time-field';
import { useSchemaForm } from './use-schema-form';
import styles from './spread-panel.module.css';

interface SpreadPanelProps {
  /** A proposal is being worked out. */
  busy: boolean;
  disabled: boolean;
  /** The videos the last proposal could not place, each named and with why. */
  unplaced: { name: string; reason: string }[];
  onPropose: (range: SpreadForm) => void;
}

const daysLater = (days: number) => kyivWallTime(Date.now() + days * 86_400_000).slice(0, 10);

/**
 * 'Розподілити' (issue 31.3): the days to spread the videos over. It lives inside the publish
 * form, so it is a group of fields with its own button rather than a form of its own. Its days are
 * the app's Kyiv day fields (dd.mm.yyyy whatever the browser's language), not native ones.
 */
export function SpreadPanel({ busy, disabled, unplaced, onPropose }: SpreadPanelProps) {
  const { control, handleSubmit, errors } = useSchemaForm<SpreadForm>(spreadSchema(), { from: daysLater(0), to: daysLater(6) });
  const propose = handleSubmit(onPropose);
  const dayField = (name: 'from' | 'to') => (
    <Controller
      name={name}
      control={control}
      render={({ field }) => (
        <DateTimeField
          time={false}
          label={t.spread[name]}
          value={field.value}
          onChange={field.onChange}
          disabled={disabled}
          error={errors[name]?.message}
        />
      )}
    />
  );
  return (
    <fieldset className={styles.panel} aria-describedby="spread-hint">
      <legend className={styles.title}>{t.spread.title}</legend>
      <p id="spread-hint" className={styles.hint}>
        {t.spread.hint}
      </p>
      <div className={styles.range}>
        {dayField('from')}
        {dayField('to')}
        <Button type="button" variant="secondary" disabled={disabled || busy} onClick={() => void propose()}>
          {busy ? t.spread.proposing : t.spread.action}
        </Button>
      </div>
      {unplaced.length > 0 && (
        <div role="status" className={styles.unplaced}>
          <p className={styles.unplacedTitle}>{t.spread.unplacedTitle}</p>
          <ul>
            {unplaced.map((item) => (
              <li key={item.name}>
                {item.name}: {item.reason}
              </li>
            ))}
          </ul>
        </div>
      )}
    </fieldset>
  );
}
