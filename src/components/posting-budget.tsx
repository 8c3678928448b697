import type { PlatformName, PostingBudgets, SelectOption } from '../lib/contract';
import { t } from '../lib/i18n';
import { useResource } from './use-resource';
import styles from './posting-budget.module.css';

interface PostingBudgetProps {
  /** The profiles the plan uses. */
  profiles: SelectOption[];
  /** The Kyiv day the plan is for, `YYYY-MM-DD`. */
  day: string;
  /** The platforms ticked in the form. */
  platforms: PlatformName[];
  /** How many of the form's videos each profile would post that day. */
  newPosts: Map<number, number>;
}

/**
 * Each chosen profile's posting budget on the ticked platforms for the plan's day, and a warning
 * where the plan goes past it. Not a refusal: the engine holds the excess until the window frees.
 */
export function PostingBudget({ profiles, day, platforms, newPosts }: PostingBudgetProps) {
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
        {t.postingCaps.budgetTitle(day.split('-').reverse().join('.'))}
      </h3>
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
