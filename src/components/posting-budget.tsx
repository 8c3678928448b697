import { useState } from 'react';
import type { PlatformName, PostingBudgets, SelectOption } from '../lib/contract';
import * as t from '../lib/i18n';
import { SegmentedButtons } from './segmented-buttons';
import { useResource } from './use-resource';
import styles from './posting-budget.module.css';

interface PostingBudgetProps {
  /** The profiles the plan uses. */
  profiles: SelectOption[];
  /** The Kyiv days the plan posts on, `YYYY-MM-DD`, in order; the first is shown until another is picked. */
  days: string[];
  /** The platforms ticked in the form. */
  platforms: PlatformName[];
  /** How many of the form's videos each profile would post on a day. */
  newPostsOn: (day: string) => Map<number, number>;
}

const shownDay = (day: string) => day.split('-').reverse().join('.');

/**
 * Each chosen profile's posting budget on the ticked platforms for a day of the plan, and a
 * warning where the plan goes past it. Not a refusal: the engine holds the excess until the
 * window frees. A plan over several days (a spread, dates by hand) picks its day here (issue 43.1:
 * the box spoke of today while the proposal was for tomorrow).
 */
export function PostingBudget({ profiles, days, platforms, newPostsOn }: PostingBudgetProps) {
  const [picked, setPicked] = useState<string | null>(null);
  const day = picked !== null && days.includes(picked) ? picked : days[0]!;
  const newPosts = newPostsOn(day);
  const path = profiles.length > 0 ? `/accounts/budget?accountIds=${profiles.map((profile) => profile.id).join(',')}&date=${day}` : null;
  const { data, error, loading } = useResource<PostingBudgets>('posting-budget', path);
  if (!path) return null;
  const titleOf = new Map(profiles.map((profile) => [profile.id, profile.title]));
  const rows = (data?.budgets ?? []).filter((budget) => platforms.includes(budget.platform) && titleOf.has(budget.accountId));
  const overs = rows.flatMap((budget) => {
    const over = budget.remaining === null ? 0 : (newPosts.get(budget.accountId) ?? 0) - budget.remaining;
    return over > 0 ? [t.postingCaps.budgetOver(titleOf.get(budget.accountId)!, t.platform.names[budget.platform], over)] : [];
  });

  return (
    <section className={styles.budget} aria-labelledby="posting-budget-title">
      <h3 id="posting-budget-title" className={styles.title}>
        {t.postingCaps.budgetTitle(shownDay(day))}
      </h3>
      {days.length > 1 && (
        <div className={styles.days}>
          <SegmentedButtons
            label={t.spread.budgetDays}
            options={days}
            selected={day}
            labelOf={(each) => shownDay(each).slice(0, 5)}
            onPick={setPicked}
          />
        </div>
      )}
      {error ? (
        <p className={styles.muted}>{t.postingCaps.budgetFailed}</p>
      ) : loading && !data ? (
        <p className={styles.muted}>{t.postingCaps.budgetLoading}</p>
      ) : (
        <ul className={styles.rows}>
          {rows.map((budget) => (
            <li key={`${budget.accountId}-${budget.platform}`} className={styles.row}>
              <span className={styles.profile}>
                {titleOf.get(budget.accountId)} · {t.platform.names[budget.platform]}
              </span>
              <span className={budget.remaining === 0 ? styles.exhausted : styles.figures}>
                {budget.limit === null
                  ? t.postingCaps.budgetUnknown
                  : t.postingCaps.budgetLine(budget.limit, budget.used, budget.planned, budget.remaining ?? 0)}
              </span>
            </li>
          ))}
        </ul>
      )}
      {overs.length > 0 && (
        <div role="alert" className={styles.warning}>
          {overs.map((text) => (
            <p key={text}>{text}</p>
          ))}
        </div>
      )}
    </section>
  );
}
