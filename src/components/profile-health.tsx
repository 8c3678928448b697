import { CircleCheck, CircleDashed, CircleX, TrendingDown, TriangleAlert } from 'lucide-react';
import type { AccountSummary, ConnectionState, PlatformName } from '../lib/contract';
import * as t from '../lib/i18n';
import { formatDate } from '../lib/kyiv-time';
import { platformIds, platformOf, type PlatformFieldName } from '../lib/platforms';
import styles from './profile-health.module.css';

const stateIcon = { connected: CircleCheck, attention: TriangleAlert, down: CircleX } satisfies Record<ConnectionState, unknown>;

type CheckedProfile = Pick<AccountSummary, 'health' | 'reach' | PlatformFieldName<'switchedOn'>>;

function switchedOn(account: CheckedProfile): PlatformName[] {
  return platformIds.filter((platform) => account[platformOf(platform).fields.switchedOn]);
}

/**
 * Each connection's one state as the server shows it (issue 39.5: whichever path learnt it last, a
 * publish, a sync, a check…): a line per platform switched on ('TikTok: Не працює: проксі не
 * відповідає'), when the latest was learnt, and the reach marks (issue 32.2); with `figures`,
 * each mark with the views behind it.
 */
export function ProfileHealth({ account, figures = false }: { account: CheckedProfile; figures?: boolean }) {
  const platforms = switchedOn(account);
  if (platforms.length === 0) return null;
  const checked = platforms.flatMap((platform) => account.health[platform]?.at ?? []).sort();
  return (
    <div className={styles.health}>
      <ul className={styles.lines}>
        {platforms.map((platform) => {
          const name = t.platform.names[platform];
          const health = account.health[platform];
          if (!health) {
            return (
              <li key={platform} className={styles.unchecked}>
                <CircleDashed size={14} aria-hidden /> <span>{t.health.platformState(name, t.health.notChecked)}</span>
              </li>
            );
          }
          const Icon = stateIcon[health.state];
          const state = t.health.states[health.state];
          return (
            <li key={platform} className={styles[health.state]}>
              <Icon size={14} aria-hidden />{' '}
              <span>
                {t.health.platformState(name, health.kind ? t.health.stateWithReason(state, t.health.kinds[health.kind]) : state)}
              </span>
            </li>
          );
        })}
        {account.reach.map((mark) => (
          <li key={`reach-${mark.platform}`} className={styles.reach}>
            <TrendingDown size={14} aria-hidden />{' '}
            <span>
              {t.reach.limitedOn(t.platform.names[mark.platform])}
              {figures && <span className={styles.figures}>{t.reach.limitedFigures(mark.views, mark.medianViews, mark.historyPosts)}</span>}
            </span>
          </li>
        ))}
      </ul>
      {checked.length > 0 && <span className={styles.checkedAt}>{t.health.checkedAt(formatDate(checked.at(-1)))}</span>}
    </div>
  );
}
