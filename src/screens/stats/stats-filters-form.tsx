import { useId, type ReactNode } from 'react';
import type { StatsChoices } from '../../lib/contract';
import { platformIds as platforms } from '../../lib/platforms';
import * as t from '../../lib/i18n';
import { statsFiltersSchema, type StatsFiltersForm } from '../../lib/schemas';
import { Button } from '../../components/button';
import { FormDayField } from '../../components/form-day-field';
import { useFocusFirstError } from '../../components/use-focus-first-error';
import { useSchemaForm } from '../../components/use-schema-form';
import styles from './stats-screen.module.css';

interface StatsFiltersFormProps {
  /** What the fields start from. */
  filters: StatsFiltersForm;
  /** The profiles and groups to offer; null while they load. */
  choices: StatsChoices | null;
  submitLabel: string;
  /** Shown on the submit button, which waits, while the last submit is at work. */
  busyLabel?: string;
  onSubmit: (filters: StatsFiltersForm) => void;
  /** Buttons before the submit (the dialog's 'Скасувати'). */
  actions?: ReactNode;
  layout: 'bar' | 'dialog';
}

/** A period of Kyiv days, a profile or a group, a platform: the statistics screen's filters, and its export dialog's. */
export function StatsFiltersFields({ filters, choices, submitLabel, busyLabel, onSubmit, actions, layout }: StatsFiltersFormProps) {
  const scopeId = useId();
  const platformId = useId();
  const { control, register, handleSubmit } = useSchemaForm(statsFiltersSchema, filters);
  const submit = useFocusFirstError(handleSubmit(onSubmit));

  return (
    <form className={layout === 'bar' ? styles.filters : styles.dialogForm} onSubmit={submit} noValidate>
      <FormDayField control={control} name="from" label={t.statsScreen.from} />
      <FormDayField control={control} name="to" label={t.statsScreen.to} />
      <div className={styles.choice}>
        <label htmlFor={scopeId} className={styles.label}>
          {t.statsScreen.scope}
        </label>
        <select id={scopeId} className={styles.input} {...register('scope')}>
          <option value="">{t.statsScreen.allProfiles}</option>
          {choices && choices.groups.length > 0 && (
            <optgroup label={t.statsScreen.groups}>
              {choices.groups.map((group) => (
                <option key={group.id} value={`group:${group.id}`}>
                  {group.name}
                </option>
              ))}
            </optgroup>
          )}
          {choices && choices.accounts.length > 0 && (
            <optgroup label={t.statsScreen.profiles}>
              {choices.accounts.map((account) => (
                <option key={account.id} value={`account:${account.id}`}>
                  {account.title}
                </option>
              ))}
            </optgroup>
          )}
        </select>
      </div>
      <div className={styles.choice}>
        <label htmlFor={platformId} className={styles.label}>
          {t.statsScreen.platform}
        </label>
        <select id={platformId} className={styles.input} {...register('platform')}>
          <option value="">{t.statsScreen.allPlatforms}</option>
          {platforms.map((platform) => (
            <option key={platform} value={platform}>
              {t.platform.names[platform]}
            </option>
          ))}
        </select>
      </div>
      <div className={styles.buttons}>
        {actions}
        <Button type="submit" disabled={busyLabel !== undefined} aria-busy={busyLabel !== undefined}>
          {busyLabel ?? submitLabel}
        </Button>
      </div>
    </form>
  );
}
