import { platformIds } from '../../src/lib/platforms';
import type PgBoss from 'pg-boss';
import { dayjs } from '../../src/lib/dates';
import { displayTimezone, kyivWallTime } from '../../src/lib/kyiv-time';
import { t } from '../messages';
import type { Database } from '../db/connect';
import type { Platform } from '../platforms/types';
import { sendTelegramJobName, type SendTelegramData } from './buckets';

/**
 * The morning digest (issue 32.3): at 09:00 Kyiv time, each user who asked for it is told in
 * Telegram of yesterday (the Kyiv day before `now`): the posts that went out, by platform, the
 * posts that failed, and the three videos whose views grew most over the day.
 */

const topShown = 3;

/** Yesterday in Kyiv: its first moment, the next day's, and its date as operators read it. */
export function kyivYesterday(now: number): { from: Date; to: Date; label: string } {
  const today = kyivWallTime(now).slice(0, 10);
  const yesterday = dayjs(today).subtract(1, 'day').format('YYYY-MM-DD');
  return {
    from: dayjs.tz(yesterday, displayTimezone).toDate(),
    to: dayjs.tz(today, displayTimezone).toDate(),
    label: dayjs(yesterday).format('DD.MM.YYYY'),
  };
}

/** The digest's text for one user's yesterday. */
export async function digestText(db: Database, userId: number, now: number): Promise<string> {
  const { from, to, label } = kyivYesterday(now);
  const { rows: counts } = await db.sql(
    `SELECT p.platform, count(*) FILTER (WHERE p.status = 'done' AND p.published_at >= $2 AND p.published_at < $3)::int AS out,
            count(*) FILTER (WHERE p.status = 'error' AND p.updated_at >= $2 AND p.updated_at < $3)::int AS failed
       FROM video_posts AS p JOIN videos AS v ON v.id = p.video_id
      WHERE v.user_id = $1 AND ((p.status = 'done' AND p.published_at >= $2 AND p.published_at < $3)
                                OR (p.status = 'error' AND p.updated_at >= $2 AND p.updated_at < $3))
      GROUP BY p.platform`,
    [userId, from, to],
  );
  // Views gained over the day: the day's last figure against the last one before it (none: all of it).
  const { rows: top } = await db.sql(
    `SELECT r.title, p.platform,
            day.views - coalesce((SELECT b.views FROM stats_points AS b WHERE b.post_id = p.id AND b.at < $2 ORDER BY b.at DESC LIMIT 1), 0)
              AS gained
       FROM (SELECT sp.post_id, max(sp.views) AS views FROM stats_points AS sp
               JOIN video_posts AS vp ON vp.id = sp.post_id JOIN videos AS vv ON vv.id = vp.video_id
              WHERE vv.user_id = $1 AND sp.at >= $2 AND sp.at < $3 GROUP BY sp.post_id) AS day
       JOIN video_posts AS p ON p.id = day.post_id JOIN videos AS v ON v.id = p.video_id
       JOIN creation_requests AS r ON r.id = v.request_id
      ORDER BY gained DESC, p.id LIMIT ${topShown}`,
    [userId, from, to],
  );
  const out = counts.reduce((sum, row) => sum + row.out, 0);
  const failed = counts.reduce((sum, row) => sum + row.failed, 0);
  const byPlatform = platformIds
    .map((platform) => [platform, counts.find((row) => row.platform === platform)?.out ?? 0] as const)
    .filter(([, count]) => count > 0)
    .map(([platform, count]) => `${t.platform.names[platform]} ${count}`)
    .join(', ');
  const gained = top.filter((row) => row.gained > 0);
  const lines = [t.alerts.digest.title(label)];
  if (out === 0 && failed === 0) lines.push(t.alerts.digest.quiet);
  if (out > 0) lines.push(t.alerts.digest.out(out, byPlatform));
  if (failed > 0) lines.push(t.alerts.digest.failed(failed));
  if (gained.length > 0) {
    lines.push(t.alerts.digest.top);
    gained.forEach((row, index) =>
      lines.push(t.alerts.digest.topLine(index + 1, row.title ?? '', t.platform.names[row.platform as Platform], row.gained)),
    );
  }
  return lines.join('\n');
}

/** One digest message for each user whose Telegram is connected and who asked for it. Answers how many. */
export async function queueDigests(db: Database, queue: PgBoss, now: number): Promise<number> {
  const { rows } = await db.sql(
    `SELECT user_id, chat_id::text AS chat_id FROM telegram_links WHERE digest AND chat_id IS NOT NULL AND failure IS NULL ORDER BY user_id`,
  );
  for (const row of rows) {
    const message: SendTelegramData = { chatId: row.chat_id, text: await digestText(db, row.user_id, now) };
    await queue.send(sendTelegramJobName, message);
  }
  return rows.length;
}
