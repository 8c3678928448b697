import type PgBoss from 'pg-boss';
import type { AlertEvent } from '../../src/lib/contract/lists';
import { formatDate } from '../../src/lib/kyiv-time';
import type { FailureKind } from '../../src/lib/post-failures';
import { t } from '../messages';
import type { Database, RunSql } from '../db/connect';
import type { Platform } from '../platforms/types';
import { accountOption } from '../services/profiles/account-views';
import { queueDeliveries } from './webhooks';

/**
 * Alerts where the team is (issue 32.3). Whatever happens to a user's posts and profiles is raised
 * here, by name, in the transaction that made it happen (raiseAlert); it waits in the user's
 * bucket for that event, which gathers every such event of the next ALERT_GROUP_SECONDS
 * (engine.alertGroupSeconds). Then the bucket becomes one Telegram message and one delivery per
 * webhook, with the count and the first events' data (flushDueAlerts), so 200 failures in a
 * minute are one message, not 200. The alert ticker (jobs/alerts.ts) flushes due buckets on the
 * injected clock; a user who asked to be told of nothing costs one statement per event.
 */

/** The queue of Telegram messages: one job per message, sent with the Bot API's own retries. */
export const sendTelegramJobName = 'send-telegram';

export interface SendTelegramData {
  /** Telegram's chat id, as text: it may pass 2^31. */
  chatId: string;
  text: string;
}

/** A post as every post event carries it: where it went, through whom, of which set. */
export interface PostAlert {
  postId: number;
  videoId: number;
  /** The set's idUpload, as the API and the set's page name it. */
  idUpload: string;
  title: string;
  platform: Platform;
  accountId: number | null;
  /** The profile as the lists name it ('#3 label'); null once it was deleted. */
  profile: string | null;
}

/** What each event carries in `data.items`. */
export interface AlertData {
  /** `failure`: the post's failure kind (src/lib/post-failures.ts); `error`: its words when it was raised. */
  'post.failed': PostAlert & { failure: FailureKind; error: string };
  'post.held': PostAlert & { until: string };
  'post.published': PostAlert & { url: string };
  /** `failure`: 'revoked', the consent link's grant is gone; 'refused', the platform refuses the credentials in use. */
  'grant.revoked': { accountId: number; profile: string; platform: Platform; failure: 'revoked' | 'refused' };
  /** `reason`: what the operator reads, in Ukrainian. */
  'profile.unhealthy': { accountId: number; profile: string; platform: Platform | null; state: 'warning' | 'down'; reason: string };
}

/** One event for one user, at the clock's time. */
export type Alert = { [E in AlertEvent]: { userId: number; event: E; data: AlertData[E]; at: Date } }[AlertEvent];

/** What a webhook receives as its JSON body, and what the Telegram message is made from. */
export interface AlertBody {
  event: AlertEvent;
  /** When the first of the grouped events happened (ISO 8601). */
  at: string;
  data: { count: number; items: unknown[] };
}

/** How many events' data a bucket keeps beside its count. */
const itemsKept = 20;
/** How many of those a Telegram message lists. */
const linesShown = 5;

/**
 * Raises one event for its user: `run` is `db.sql`, or the caller's transaction, so the alert is
 * raised exactly when what it tells of is committed. Nothing is kept for a user who is told of
 * this event nowhere. Another part of the server raises `profile.unhealthy` the same way:
 * `raiseAlert(db.sql, { userId, event: 'profile.unhealthy', data: {...}, at: new Date(clock.now()) })`.
 */
export async function raiseAlert(run: RunSql, { userId, event, data, at }: Alert): Promise<void> {
  await addToBucket(run, userId, event, data, at);
}

async function addToBucket(run: RunSql, userId: number, event: AlertEvent, data: unknown, at: Date) {
  await run(
    `INSERT INTO alert_buckets (user_id, event, opened_at, count, items)
     SELECT $1, $2, $3, 1, jsonb_build_array($4::jsonb)
      WHERE EXISTS (SELECT 1 FROM webhooks WHERE user_id = $1 AND $2 = ANY (events))
         OR EXISTS (SELECT 1 FROM telegram_links WHERE user_id = $1 AND chat_id IS NOT NULL AND failure IS NULL AND $2 = ANY (events))
     ON CONFLICT (user_id, event) DO UPDATE SET count = alert_buckets.count + 1,
       items = CASE WHEN jsonb_array_length(alert_buckets.items) < ${itemsKept} THEN alert_buckets.items || EXCLUDED.items
                    ELSE alert_buckets.items END`,
    [userId, event, at, JSON.stringify(data)],
  );
}

type PostEvent = 'post.failed' | 'post.held' | 'post.published';
type PostExtra<E extends PostEvent> = Omit<AlertData[E], keyof PostAlert>;

/** Raises a post's event for the owner of its set, in the caller's transaction. */
export async function raisePostAlert<E extends PostEvent>(run: RunSql, postId: number, event: E, extra: PostExtra<E>, at: Date) {
  const { rows } = await run(
    `SELECT p.id, p.video_id, p.platform, p.account_id, r.id_upload, r.title, r.user_id, a.comments, a.youtube_login, a.instagram_login
       FROM video_posts AS p JOIN videos AS v ON v.id = p.video_id JOIN creation_requests AS r ON r.id = v.request_id
       LEFT JOIN accounts AS a ON a.id = p.account_id
      WHERE p.id = $1`,
    [postId],
  );
  const row = rows[0];
  if (!row) return;
  const post: PostAlert = {
    postId: row.id,
    videoId: row.video_id,
    idUpload: row.id_upload,
    title: row.title ?? '',
    platform: row.platform,
    accountId: row.account_id,
    profile: row.account_id === null ? null : profileTitle(row),
  };
  const data: AlertData[E] = { ...post, ...extra } as AlertData[E];
  await addToBucket(run, row.user_id, event, data, at);
}

function profileTitle(row: { account_id: number; comments: string; youtube_login: string | null; instagram_login: string | null }) {
  return accountOption({ id: row.account_id, comments: row.comments, youtubeLogin: row.youtube_login, instagramLogin: row.instagram_login })
    .title;
}

/**
 * A profile's access to a platform was lost since the last look (migration 0042's trigger marks the
 * connection when it turns 'down' as revoked or refused): raised as grant.revoked, once per loss,
 * with the mark cleared in the same transaction.
 */
export async function raiseAccessFailures(db: Database, now: number): Promise<number> {
  return db.transaction(async (run) => {
    const { rows } = await run(
      `UPDATE connection_states AS s SET alert_due = false
         FROM accounts AS a
        WHERE a.id = s.account_id
          AND (s.account_id, s.platform) IN (SELECT account_id, platform FROM connection_states
                                              WHERE alert_due LIMIT 500 FOR UPDATE SKIP LOCKED)
        RETURNING a.user_id, s.account_id, s.platform, s.state, s.kind, a.comments, a.youtube_login, a.instagram_login`,
    );
    let raised = 0;
    for (const row of rows) {
      // Mended before this look: nothing to tell.
      if (row.state !== 'down' || (row.kind !== 'revoked' && row.kind !== 'refused')) continue;
      await raiseAlert(run, {
        userId: row.user_id,
        event: 'grant.revoked',
        data: { accountId: row.account_id, profile: profileTitle(row), platform: row.platform, failure: row.kind },
        at: new Date(now),
      });
      raised++;
    }
    return raised;
  });
}

/** The Telegram message of a bucket: its heading with the count, the first events, and how many more. */
export function alertText({ event, data }: AlertBody): string {
  const lines = data.items.slice(0, linesShown).map((item) => `• ${alertLine(event, item)}`);
  const unlisted = data.count - lines.length;
  return [t.alerts.heading[event]!(data.count), ...lines, ...(unlisted > 0 ? [t.alerts.more(unlisted)] : [])].join('\n');
}

function alertLine(event: AlertEvent, item: unknown): string {
  const name = (platform: Platform) => t.platform.names[platform];
  const post = (data: PostAlert) => t.alerts.post(name(data.platform), data.profile, data.title);
  switch (event) {
    case 'post.failed': {
      const data = item as AlertData['post.failed'];
      return `${post(data)}: ${t.alerts.failedBecause(data.error)}`;
    }
    case 'post.held': {
      const data = item as AlertData['post.held'];
      return `${post(data)}: ${t.alerts.heldUntil(formatDate(data.until))}`;
    }
    case 'post.published': {
      const data = item as AlertData['post.published'];
      return `${post(data)}: ${data.url}`;
    }
    case 'grant.revoked': {
      const data = item as AlertData['grant.revoked'];
      const words = data.failure === 'revoked' ? t.notifications.accessRevoked : t.notifications.accessRefused;
      return words(data.profile, name(data.platform));
    }
    case 'profile.unhealthy': {
      const data = item as AlertData['profile.unhealthy'];
      return t.alerts.unhealthy(data.profile, data.platform && name(data.platform), data.reason);
    }
  }
}

/**
 * Every bucket whose window has passed on the clock, emptied in one transaction: one Telegram
 * message to the user's chat if it asked for the event, and one delivery to each of the user's
 * webhooks that did. A bucket a transaction is still adding to is left for the next look.
 * Answers how many messages and deliveries were queued.
 */
export async function flushDueAlerts(db: Database, queue: PgBoss, now: number, groupMs: number) {
  return db.transaction(async (run) => {
    const { rows: buckets } = await run(
      `DELETE FROM alert_buckets WHERE (user_id, event) IN (
         SELECT user_id, event FROM alert_buckets WHERE opened_at <= $1 ORDER BY opened_at LIMIT 500 FOR UPDATE SKIP LOCKED)
       RETURNING user_id, event, opened_at, count, items`,
      [new Date(now - groupMs)],
    );
    let messages = 0;
    let deliveries = 0;
    for (const bucket of buckets) {
      const body: AlertBody = {
        event: bucket.event,
        at: new Date(bucket.opened_at).toISOString(),
        data: { count: bucket.count, items: bucket.items },
      };
      const { rows: chats } = await run(
        `SELECT chat_id::text AS chat_id FROM telegram_links
          WHERE user_id = $1 AND chat_id IS NOT NULL AND failure IS NULL AND $2 = ANY (events)`,
        [bucket.user_id, bucket.event],
      );
      for (const chat of chats) {
        const message: SendTelegramData = { chatId: chat.chat_id, text: alertText(body) };
        await queue.send(sendTelegramJobName, message, { db: { executeSql: run } });
        messages++;
      }
      deliveries += await queueDeliveries(run, queue, bucket.user_id, body.event, JSON.stringify(body), now);
    }
    return { messages, deliveries };
  });
}
