import { Link } from 'wouter';
import { useSelector } from '@xstate/react';
import { Bell } from 'lucide-react';
import type { NotificationItem } from '../lib/contract';
import { formatDate } from '../lib/kyiv-time';
import * as t from '../lib/i18n';
import { notificationsMachine } from '../machines/notifications-machine';
import { Dropdown } from './dropdown';
import { useScreenActor } from './use-screen-actor';
import { ErrorText } from './error-text';
import styles from './notification-bell.module.css';

/** Where a notification leads: the request to publish, the set whose posts to retry or move, the profile to reconnect, the users whose passwords an admin sets. */
export function notificationHref(item: NotificationItem): string {
  switch (item.kind) {
    case 'render_done':
      return `/video/request/${item.idUpload}`;
    case 'render_failed':
      return '/video/request-create';
    case 'set_posts':
      return `/video/youtube/${item.idUpload}`;
    case 'credentials_failed':
    case 'credentials_ending':
    case 'profile_unhealthy':
      return `/accounts/${item.account?.id}`;
    case 'sign_in_spray':
      return '/users';
  }
}

function titleOf(item: NotificationItem): string {
  switch (item.kind) {
    case 'render_done':
      return t.notifications.renderDone(item.title ?? '');
    case 'render_failed':
      return t.notifications.renderFailed(item.title ?? '');
    case 'set_posts':
      return t.notifications.setPosts(item.title ?? '', item.posts ?? { published: 0, failed: 0, held: 0 });
    case 'credentials_failed': {
      const platform = item.platform ? t.platform.names[item.platform] : '';
      const profile = item.account?.name ?? '—';
      return item.failure === 'revoked'
        ? t.notifications.accessRevoked(profile, platform)
        : t.notifications.accessRefused(profile, platform);
    }
    case 'credentials_ending':
      return t.connections.credentialsEnding(item.account?.name ?? '—');
    case 'sign_in_spray':
      return t.notifications.signInSpray(item.message ?? '—');
    case 'profile_unhealthy':
      return t.health.unhealthy(
        item.account?.name ?? '—',
        item.platform ? t.platform.names[item.platform] : null,
        item.health ? t.health.kinds[item.health] : '—',
      );
  }
}

/** The shell's bell: the signed-in user's notifications, newest first, with the unread count on the bell. */
export function NotificationBell({ triggerClassName }: { triggerClassName?: string }) {
  const actor = useScreenActor(notificationsMachine, { id: 'notifications' });
  const list = useSelector(actor, (snapshot) => snapshot.context.list);
  const unread = list?.unread ?? 0;
  const items = list?.items ?? [];

  return (
    <Dropdown
      triggerLabel={t.notifications.bell(unread)}
      triggerClassName={`${triggerClassName ?? ''} ${styles.trigger}`}
      panelClassName={styles.dropdown}
      trigger={
        <>
          <Bell size={18} aria-hidden />
          {/* The whole count, as the bell's name says it: a '9+' beside '12 непрочитаних' is a label that does not match its name. */}
          {unread > 0 && (
            <span className={styles.count} aria-hidden>
              {unread}
            </span>
          )}
        </>
      }
    >
      {(close) => (
        <div className={styles.panel}>
          <div className={styles.head}>
            <span className={styles.title}>{t.app.notifications}</span>
            {unread > 0 && (
              <button type="button" className={styles.readAll} onClick={() => actor.send({ type: 'read.all' })}>
                {t.notifications.markAllRead}
              </button>
            )}
          </div>
          {items.length === 0 ? (
            <p className={styles.empty}>{t.app.noNotifications}</p>
          ) : (
            <ul className={styles.list}>
              {items.map((item) => {
                const follow = () => {
                  if (!item.read) actor.send({ type: 'read', id: item.id });
                  close();
                };
                return (
                  <li key={item.id} className={`${styles.entry} ${item.read ? '' : styles.unread}`}>
                    <Link href={notificationHref(item)} className={styles.item} onClick={follow}>
                      <span className={styles.itemTitle}>
                        {!item.read && <span className={styles.newMark}>{t.notifications.unread}</span>}
                        {titleOf(item)}
                      </span>
                      {item.message && item.kind !== 'sign_in_spray' && (
                        <ErrorText className={styles.message} text={item.message} summaryOnly />
                      )}
                      <span className={styles.time}>{formatDate(item.createdAt)}</span>
                    </Link>
                  </li>
                );
              })}
            </ul>
          )}
        </div>
      )}
    </Dropdown>
  );
}
