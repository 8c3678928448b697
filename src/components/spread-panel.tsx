import * as t from '../lib/i18n';
import { kyivWallTime } from '../lib/kyiv-time';
import { spreadSchema, type SpreadForm } from '../lib/schemas';
import { Button } from './button';
import { FormDayField } from './form-day-field';
import { useSchemaForm } from './use-schema-form';
import styles from './spread-panel.module.css';
import { useNow } from './use-now';

/** One day of the last proposal: each profile's count of posts there. */
export interface ProposedDay {
  /** `YYYY-MM-DD`, Kyiv. */
  day: string;
  profiles: { title: string; posts: number }[];
}

interface SpreadPanelProps {
  /** A proposal is being worked out. */
  busy: boolean;
  disabled: boolean;
  /** The videos the last proposal could not place, each named and with why. */
  unplaced: { name: string; reason: string }[];
  /** How many posts each profile gets per day in the last proposal (issue 43.1). */
  days: ProposedDay[];
  onPropose: (range: SpreadForm) => void;
}

const shownDay = (day: string) => day.split('-').reverse().join('.');

const daysLater = (days: number) => kyivWallTime(Date.now() + days * 86_400_000).slice(0, 10);

/**
 * 'Розподілити' (issue 31.3): the days to spread the videos over. It lives inside the publish
 * form, so it is a group of fields with its own button rather than a form of its own. Its days are
 * the app's Kyiv day fields (dd.mm.yyyy whatever the browser's language), not native ones.
 */
export function SpreadPanel({ busy, disabled, unplaced, days, onPropose }: SpreadPanelProps) {
  const now = useNow();
  const { control, handleSubmit, register } = useSchemaForm<SpreadForm>(spreadSchema(now), {
    from: daysLater(0),
    to: daysLater(6),
    mode: 'even',
  });
  const propose = handleSubmit(onPropose);
  return (
    <fieldset className={styles.panel} aria-describedby="spread-hint">
      <legend className={styles.title}>{t.spread.title}</legend>
      <p id="spread-hint" className={styles.hint}>
        {t.spread.hint}
      </p>
      <fieldset className={styles.modes}>
        <legend className={styles.modesTitle}>{t.spread.mode}</legend>
        {(
          [
            ['even', t.spread.modeEven, t.spread.modeEvenHint],
            ['soonest', t.spread.modeSoonest, t.spread.modeSoonestHint],
          ] as const
        ).map(([mode, label, hint]) => (
          <label key={mode} className={styles.mode}>
            <input type="radio" value={mode} disabled={disabled} {...register('mode')} />
            <span>
              {label} <span className={styles.modeHint}>— {hint}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <div className={styles.range}>
        <FormDayField control={control} name="from" label={t.spread.from} disabled={disabled} />
        <FormDayField control={control} name="to" label={t.spread.to} disabled={disabled} />
        <Button type="button" variant="secondary" disabled={disabled || busy} onClick={() => void propose()}>
          {busy ? t.spread.proposing : t.spread.action}
        </Button>
      </div>
      {days.length > 0 && (
        <div className={styles.days}>
          <p className={styles.daysTitle}>{t.spread.daysTitle}</p>
          <ul>
            {days.map(({ day, profiles }) => (
              <li key={day}>
                {t.spread.dayLine(
                  shownDay(day),
                  profiles.reduce((sum, profile) => sum + profile.posts, 0),
                  profiles.map((profile) => t.spread.profileCount(profile.title, profile.posts)).join(', '),
                )}
              </li>
            ))}
          </ul>
        </div>
      )}
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
