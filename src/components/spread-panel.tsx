import { t } from '../lib/i18n';
import { kyivWallTime } from '../lib/kyiv-time';
import { spreadSchema, type SpreadForm } from '../lib/schemas';
import { Button } from './button';
import { FormDayField } from './form-day-field';
import { useSchemaForm } from './use-schema-form';
import styles from './spread-panel.module.css';
import { useNow } from './use-now';

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
  const now = useNow();
  const { control, handleSubmit } = useSchemaForm<SpreadForm>(spreadSchema(now), { from: daysLater(0), to: daysLater(6) });
  const propose = handleSubmit(onPropose);
  return (
    <fieldset className={styles.panel} aria-describedby="spread-hint">
      <legend className={styles.title}>{t.spread.title}</legend>
      <p id="spread-hint" className={styles.hint}>
        {t.spread.hint}
      </p>
      <div className={styles.range}>
        <FormDayField control={control} name="from" label={t.spread.from} disabled={disabled} />
        <FormDayField control={control} name="to" label={t.spread.to} disabled={disabled} />
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
