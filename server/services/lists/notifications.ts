import type { NotificationList } from '../../../src/lib/contract';
import { t } from '../../messages';
import { renderFailureText } from '../../../src/lib/render-failures';
import type { Database } from '../../db/connect';

/** A user's notifications, newest first. The table keeps at most 50 per user (migration 0013). */
export async function notificationList(db: Database, userId: number): Promise<NotificationList> {
  const { rows } = await db.sql(
    `SELECT notifications.id, notifications.kind, creation_requests.id_upload, creation_requests.title, creation_requests.source_name, notifications.account_id,
            coalesce(nullif(accounts.comments, ''),
                     (SELECT c.checked_name FROM account_connections AS c
                       WHERE c.account_id = accounts.id AND c.platform = notifications.platform AND c.checked_name IS NOT NULL LIMIT 1),
                     accounts.youtube_login, accounts.instagram_login, '') AS account_label,
            notifications.platform, notifications.message, notifications.posts, notifications.failure_code, notifications.health_reason, creation_requests.render_failure, creation_requests.render_failure_detail,
            notifications.created_at, notifications.read_at IS NOT NULL AS read
       FROM notifications
       LEFT JOIN creation_requests ON creation_requests.id = notifications.request_id
       LEFT JOIN accounts ON accounts.id = notifications.account_id
      WHERE notifications.user_id = $1
      ORDER BY notifications.id DESC`,
    [userId],
  );
  const items = rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    idUpload: row.id_upload,
    account: row.account_id === null ? null : { id: row.account_id, name: t.accounts.optionTitle(row.account_id, row.account_label) },
    // A render is named by its source file until the request is published with a title (issue 40.7: five alike lines named nothing).
    title: row.id_upload === null ? null : row.title || (row.kind.startsWith('render') ? (row.source_name ?? '') : ''),
    platform: row.platform,
    // A failed render is worded from its request's kind (migration 0035); the others keep their words.
    message: row.kind === 'render_failed' ? renderFailureText(row.render_failure, row.render_failure_detail) : row.message,
    posts: row.posts,
    failure: row.failure_code,
    ...(row.health_reason === null ? {} : { health: row.health_reason }),
    createdAt: new Date(row.created_at).toISOString(),
    read: row.read,
  }));
  return { items, unread: items.filter((item) => !item.read).length };
}

/** Marks all the user's notifications read at `at`. */
export async function markNotificationsRead(db: Database, userId: number, at: Date): Promise<void> {
  await db.sql('UPDATE notifications SET read_at = $2 WHERE user_id = $1 AND read_at IS NULL', [userId, at]);
}

/** Marks one of the user's notifications read at `at` (again, when it was); false when the user has no such notification. */
export async function markNotificationRead(db: Database, userId: number, id: number, at: Date): Promise<boolean> {
  const { rows } = await db.sql('UPDATE notifications SET read_at = coalesce(read_at, $3) WHERE user_id = $1 AND id = $2 RETURNING id', [
    userId,
    id,
    at,
  ]);
  return rows.length > 0;
}
