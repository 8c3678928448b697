import { useId, useMemo } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { superstructResolver } from '@hookform/resolvers/superstruct';
import type { EffectiveSlots } from '../lib/contract';
import * as t from '../lib/i18n';
import { postingSlotsSchema, type PostingSlotsForm } from '../lib/schemas';
import { Button } from './button';
import { Card } from './page';
import { TextField } from './text-field';
import { useFocusFirstError } from './use-focus-first-error';
import { useResource } from './use-resource';
import styles from './posting-slots-panel.module.css';

const weekdays = [1, 2, 3, 4, 5, 6, 7];

/** Whose slots a profile's or a group's form shows: a profile names the group it takes them from. */
export function slotsSourceText(slots: EffectiveSlots, groupName: string | null): string {
  if (slots.source === 'installation') return t.postingSlots.sources.installation;
  if (slots.source === 'profile') return t.postingSlots.sources.profile;
  return groupName === null ? t.postingSlots.sources.groupOwn : t.postingSlots.sources.group(groupName);
}

interface PostingSlotsPanelProps {
  /** `/accounts/{id}/slots` or `/accounts-group/{id}/slots`: saved with PUT, given up with DELETE. */
  path: string;
  /** The slots that hold now, the record's own or the ones it takes. */
  slots: EffectiveSlots;
  /** Where they come from, as slotsSourceText words it. */
  sourceText: string;
  /** Whether the slots are the record's own, which it can give up for the ones it would take. */
  own: boolean;
  clearLabel: string;
  onSaved: () => void;
}

/** 'Слоти публікацій': the hours in Kyiv, the least gap and the days a profile (or a group's profiles) posts. */
export function PostingSlotsPanel({ path, slots, sourceText, own, clearLabel, onSaved }: PostingSlotsPanelProps) {
  const values = useMemo(
    () => ({ from: slots.from, to: slots.to, minGapMinutes: slots.minGapMinutes, days: slots.days }),
    [slots.from, slots.to, slots.minGapMinutes, slots.days],
  );
  const {
    register,
    control,
    handleSubmit,
    formState: { errors },
  } = useForm<PostingSlotsForm>({ resolver: superstructResolver(postingSlotsSchema), values, shouldFocusError: false });
  const panel = useResource('posting-slots', null, { onSaved });
  const save = (form: PostingSlotsForm) => panel.save({ method: 'PUT', path, body: form, successText: t.postingSlots.saved });
  const clear = () => panel.save({ method: 'DELETE', path, successText: t.postingSlots.cleared });
  const onSubmit = useFocusFirstError(handleSubmit(save));
  const titleId = useId();
  const daysErrorId = useId();

  return (
    <Card>
      <form noValidate onSubmit={onSubmit} aria-labelledby={titleId}>
        <div className={styles.header}>
          <h2 id={titleId} className={styles.title}>
            {t.postingSlots.title}
          </h2>
          <span className={styles.source}>{sourceText}</span>
        </div>
        <p className={styles.hint}>{t.postingSlots.hint}</p>
        <div className={styles.hours}>
          <TextField
            label={t.postingSlots.from}
            placeholder="09:00"
            inputMode="numeric"
            autoComplete="off"
            error={errors.from?.message}
            {...register('from')}
          />
          <TextField
            label={t.postingSlots.to}
            placeholder="22:00"
            inputMode="numeric"
            autoComplete="off"
            error={errors.to?.message}
            {...register('to')}
          />
          <TextField
            label={t.postingSlots.minGap}
            type="number"
            min={0}
            max={1440}
            step={5}
            error={errors.minGapMinutes?.message}
            {...register('minGapMinutes', { valueAsNumber: true })}
          />
        </div>
        <Controller
          control={control}
          name="days"
          render={({ field, fieldState }) => (
            <fieldset className={styles.days} aria-describedby={fieldState.error ? daysErrorId : undefined}>
              <legend className={styles.legend}>{t.postingSlots.days}</legend>
              <div className={styles.dayList}>
                {weekdays.map((day, index) => (
                  <label key={day} className={styles.day}>
                    <input
                      type="checkbox"
                      className={styles.dayInput}
                      aria-label={t.postingSlots.dayNames[index]}
                      aria-invalid={fieldState.error && index === 0 ? true : undefined}
                      checked={field.value.includes(day)}
                      onChange={(event) =>
                        field.onChange(event.target.checked ? [...field.value, day] : field.value.filter((other) => other !== day))
                      }
                    />
                    <span aria-hidden>{t.calendar.weekdays[index]}</span>
                  </label>
                ))}
              </div>
              {fieldState.error && (
                <span id={daysErrorId} className={styles.error} role="alert">
                  {fieldState.error.message}
                </span>
              )}
            </fieldset>
          )}
        />
        <div className={styles.actions}>
          <Button type="submit" disabled={panel.saving}>
            {t.postingSlots.save}
          </Button>
          {own && (
            <Button variant="secondary" onClick={clear} disabled={panel.saving}>
              {clearLabel}
            </Button>
          )}
        </div>
      </form>
    </Card>
  );
}
