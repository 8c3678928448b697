import { useState } from 'react';
import {
  Controller,
  get,
  useWatch,
  type Control,
  type FieldErrors,
  type UseFormGetValues,
  type UseFormRegister,
  type UseFormSetValue,
} from 'react-hook-form';
import type { TagSet } from '../../lib/contract';
import * as t from '../../lib/i18n';
import type { Platform } from '../../lib/platforms';
import { textCounts, textProblems, platformText, type PostText, type TextProblem, type WorstValues } from '../../lib/post-texts';
import { commonText, sentTexts } from '../../lib/publishing';
import type { PublishFields } from '../../lib/schemas';
import { addTags } from '../../lib/tags';
import { templateVariables } from '../../lib/text-template';
import { FormTagsField } from '../../components/form-tags-field';
import { TagInput } from '../../components/tag-input';
import { TextAreaField } from '../../components/text-area-field';
import { TextField } from '../../components/text-field';
import styles from './publish-texts.module.css';

type Tab = 'common' | Platform;

interface PublishTextsProps {
  control: Control<PublishFields>;
  register: UseFormRegister<PublishFields>;
  getValues: UseFormGetValues<PublishFields>;
  setValue: UseFormSetValue<PublishFields>;
  errors: FieldErrors<PublishFields>;
  submitCount: number;
  isSubmitted: boolean;
  /** The ticked platforms, in the registry's order: each gets its tab. */
  ticked: Platform[];
  worst: WorstValues;
  tagSets: TagSet[];
  disabled: boolean;
}

/** One platform's counters on its words' worst case, red past the limit. */
function Counters({ platform, text, worst }: { platform: Platform; text: PostText; worst: WorstValues }) {
  return (
    <ul className={styles.counters} aria-label={t.texts.counters(t.platform.names[platform])}>
      {textCounts(platform, text, worst).map(({ counter, used, limit }) => (
        <li key={`${counter.field}-${counter.unit}`} className={used > limit ? styles.over : undefined}>
          {t.texts.counter(
            t.texts.fields[counter.unit === 'hashtags' ? 'hashtags' : counter.field],
            used,
            limit,
            t.texts.units[counter.unit],
          )}
        </li>
      ))}
    </ul>
  );
}

const problemOf = (problems: TextProblem[], platform: Platform, field: keyof PostText) =>
  problems.find((problem) => problem.platform === platform && problem.field === field)?.message;

/**
 * The publish form's words: the set's own ('Спільний текст') and, for each ticked platform, its own
 * title, description and tags over them, with each platform's counters and refusals as one types
 * (src/lib/post-texts.ts) and the variables a text may use.
 */
export function PublishTexts({
  control,
  register,
  getValues,
  setValue,
  errors,
  submitCount,
  isSubmitted,
  ticked,
  worst,
  tagSets,
  disabled,
}: PublishTextsProps) {
  const [choice, setChoice] = useState<{ tab: Tab; at: number }>({ tab: 'common', at: 0 });
  const values = useWatch({ control }) as PublishFields;
  const common = commonText({ title: values.title ?? '', description: values.description ?? '', tags: values.tags ?? [] });
  const own = sentTexts(values);
  const problems = textProblems(common, own, ticked, worst);
  const fieldError = (path: string) => (get(errors, path) as { message?: string } | undefined)?.message;
  const tabHasError = (tab: Tab) =>
    tab === 'common'
      ? Boolean(errors.title || errors.description || errors.tags)
      : problems.some((problem) => problem.platform === tab) || Boolean(get(errors, `texts.${tab}`));
  // A submit refused for a tab not shown shows that tab, until the operator picks one.
  const firstWithError = (['common', ...ticked] as Tab[]).find(tabHasError);
  const chosen = choice.tab === 'common' || ticked.includes(choice.tab) ? choice.tab : 'common';
  const active = choice.at === submitCount || tabHasError(chosen) ? chosen : (firstWithError ?? chosen);
  const tabs: Tab[] = ['common', ...ticked];
  const tabName = (tab: Tab) => (tab === 'common' ? t.texts.common : t.platform.names[tab]);
  const tabId = (tab: Tab) => `publish-texts-tab-${tab}`;

  return (
    <section className={styles.texts} aria-labelledby="publish-texts-heading">
      <h2 id="publish-texts-heading" className={styles.heading}>
        {t.texts.heading}
      </h2>
      <div role="tablist" aria-label={t.texts.tabs} className={styles.tabs}>
        {tabs.map((tab) => (
          <button
            key={tab}
            id={tabId(tab)}
            type="button"
            role="tab"
            aria-selected={active === tab}
            aria-controls="publish-texts-panel"
            tabIndex={active === tab ? 0 : -1}
            className={`${styles.tab} ${tabHasError(tab) && isSubmitted ? styles.tabInvalid : ''}`}
            onClick={() => setChoice({ tab, at: submitCount })}
            onKeyDown={(event) => {
              const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
              if (step === 0) return;
              const next = tabs[(tabs.indexOf(active) + step + tabs.length) % tabs.length]!;
              setChoice({ tab: next, at: submitCount });
              document.getElementById(tabId(next))?.focus();
            }}
          >
            {tabName(tab)}
          </button>
        ))}
      </div>
      <div id="publish-texts-panel" role="tabpanel" aria-labelledby={tabId(active)} className={styles.panel}>
        {active === 'common' ? (
          <>
            <TextField label={t.publish.name} autoComplete="off" disabled={disabled} error={errors.title?.message} {...register('title')} />
            <TextAreaField
              label={t.publish.description}
              disabled={disabled}
              error={errors.description?.message}
              {...register('description')}
            />
            <FormTagsField
              control={control}
              name="tags"
              tagSets={tagSets}
              disabled={disabled}
              onPick={(tagSet) =>
                setValue('tags', addTags(getValues('tags'), tagSet.tags.join(' ')), { shouldValidate: isSubmitted, shouldDirty: true })
              }
            />
            {ticked.length > 0 && (
              <div className={styles.limits}>
                {ticked.map((platform) => (
                  <div key={platform} className={styles.limitRow}>
                    <span className={styles.platformName}>{t.platform.names[platform]}</span>
                    <Counters platform={platform} text={platformText(common, own, platform)} worst={worst} />
                  </div>
                ))}
              </div>
            )}
            {problems.length > 0 && (
              <ul className={styles.problems} role="alert">
                {problems.map((problem) => (
                  <li key={`${problem.platform}-${problem.field}`}>{problem.message}</li>
                ))}
              </ul>
            )}
            <p className={styles.hint}>{t.texts.tabsHint}</p>
          </>
        ) : (
          <>
            <TextField
              key={`${active}-title`}
              label={t.texts.ownTitle(t.platform.names[active])}
              autoComplete="off"
              placeholder={common.title}
              hint={t.texts.sameAsCommon}
              disabled={disabled}
              error={fieldError(`texts.${active}.title`) ?? problemOf(problems, active, 'title')}
              {...register(`texts.${active}.title`)}
            />
            <TextAreaField
              key={`${active}-description`}
              label={t.texts.ownDescription(t.platform.names[active])}
              placeholder={common.description}
              disabled={disabled}
              error={fieldError(`texts.${active}.description`) ?? problemOf(problems, active, 'description')}
              {...register(`texts.${active}.description`)}
            />
            <Controller
              key={`${active}-tags`}
              control={control}
              name={`texts.${active}.tags`}
              render={({ field }) => (
                <TagInput
                  label={t.texts.ownTags(t.platform.names[active])}
                  value={field.value ?? []}
                  onChange={field.onChange}
                  placeholder={common.tags.join(' ')}
                  error={fieldError(`texts.${active}.tags`) ?? problemOf(problems, active, 'tags')}
                />
              )}
            />
            <Counters platform={active} text={platformText(common, own, active)} worst={worst} />
          </>
        )}
        {/* Shown, not folded: a folded list would be one more Tab stop on the keyboard's way to Save (tests/e2e/first-day.test.ts counts them). */}
        <div className={styles.variables}>
          <p className={styles.variablesTitle}>{t.texts.variablesTitle}</p>
          <ul>
            {templateVariables.map((variable) => (
              <li key={variable}>
                <code>{`{${variable}}`}</code> — {t.texts.variables[variable]}
              </li>
            ))}
            <li>{t.texts.spintax}</li>
          </ul>
          <p>{t.texts.worstCase}</p>
        </div>
      </div>
    </section>
  );
}
