import crypto from 'node:crypto';
import type { Database } from '../../server/db/connect';
import type { PlatformName } from '../../src/lib/contract';

/** A figures' reading: when (ISO, with its offset) and what the platform said. */
export interface Point {
  at: string;
  views: number;
  likes?: number;
  comments?: number;
}

export async function seedGroup(db: Database, userId: number, name: string): Promise<number> {
  const { rows } = await db.sql(`INSERT INTO account_groups (user_id, name) VALUES ($1, $2) RETURNING id`, [userId, name]);
  return rows[0].id;
}

export async function seedAccount(db: Database, userId: number, comments: string, groupId: number | null = null): Promise<number> {
  const { rows } = await db.sql(
    `INSERT INTO accounts (user_id, proxy, comments, group_id) VALUES ($1, '127.0.0.1:8080', $2, $3) RETURNING id`,
    [userId, comments, groupId],
  );
  return rows[0].id;
}

export interface SeededVideo {
  videoId: number;
  idUpload: string;
  /** The post per platform, in the order asked. */
  postIds: number[];
}

/**
 * A published set of one video (or the `position`th of its set), posted through `accountId` on
 * each platform of `posts` (published when said, else now), each with its figures' history: its
 * points, and its latest figures on the post as the sync leaves them.
 */
export async function seedVideo(
  db: Database,
  options: {
    userId: number;
    accountId: number | null;
    title: string | null;
    posts: { platform: PlatformName; url?: string; points: Point[]; publishedAt?: string }[];
    position?: number;
  },
): Promise<SeededVideo> {
  const idUpload = crypto.randomUUID();
  const { rows: requests } = await db.sql(
    `INSERT INTO creation_requests (id_upload, user_id, status, count_video, source_key, title, published_at)
     VALUES ($1, $2, 'published', 1, 'source', $3, now()) RETURNING id`,
    [idUpload, options.userId, options.title],
  );
  const { rows: videos } = await db.sql(
    `INSERT INTO videos (request_id, user_id, account_id, position, status, date) VALUES ($1, $2, $3, $4, 'success', now()) RETURNING id`,
    [requests[0].id, options.userId, options.accountId, options.position ?? 0],
  );
  const videoId = videos[0].id as number;
  const postIds: number[] = [];
  for (const post of options.posts) {
    const latest = post.points.at(-1);
    const { rows } = await db.sql(
      `INSERT INTO video_posts (video_id, platform, account_id, status, scheduled_at, published_at, url, views, likes, comments, stats_synced_at)
       VALUES ($1, $2, $3, 'done', coalesce($8, now()), coalesce($8, now()), $4, $5, $6, $7, CASE WHEN $5::integer IS NULL THEN NULL ELSE now() END)
       RETURNING id`,
      [
        videoId,
        post.platform,
        options.accountId,
        post.url ?? null,
        latest?.views ?? null,
        latest?.likes ?? 0,
        latest?.comments ?? 0,
        post.publishedAt ?? null,
      ],
    );
    const postId = rows[0].id as number;
    postIds.push(postId);
    for (const point of post.points) {
      await db.sql(`INSERT INTO stats_points (post_id, at, views, likes, comments) VALUES ($1, $2, $3, $4, $5)`, [
        postId,
        point.at,
        point.views,
        point.likes ?? 0,
        point.comments ?? 0,
      ]);
    }
  }
  return { videoId, idUpload, postIds };
}

/**
 * `videos` published YouTube videos of `userId` over `accounts` new profiles, each with a point a
 * day at Kyiv noon for `days` days up to `lastDay` (`YYYY-MM-DD`), its views growing by its own
 * step: `videos × days` rows of export, seeded by a few statements.
 */
export async function seedMany(db: Database, options: { userId: number; accounts: number; videos: number; days: number; lastDay: string }) {
  const { userId, videos, days, lastDay } = options;
  await db.sql(
    `INSERT INTO accounts (user_id, proxy, comments) SELECT $1, '127.0.0.1:8080', 'Профіль ' || g FROM generate_series(1, $2) AS g`,
    [userId, options.accounts],
  );
  await db.sql(
    `INSERT INTO creation_requests (id_upload, user_id, status, count_video, source_key, title, published_at)
     SELECT gen_random_uuid(), $1, 'published', 1, 'source', 'Відео «' || g || '»; частина ' || g, now() FROM generate_series(1, $2) AS g`,
    [userId, videos],
  );
  await db.sql(
    `INSERT INTO videos (request_id, user_id, account_id, position, status, date)
     SELECT r.id, r.user_id, (SELECT min(id) FROM accounts WHERE user_id = $1) + r.id % $2, 0, 'success', now()
       FROM creation_requests AS r WHERE r.user_id = $1`,
    [userId, options.accounts],
  );
  await db.sql(
    `INSERT INTO video_posts (video_id, platform, account_id, status, scheduled_at, published_at, url, views, likes, comments, stats_synced_at)
     SELECT v.id, 'youtube', v.account_id, 'done', now(), now(), 'https://youtu.be/v' || v.id, v.id * $2, 0, 0, now()
       FROM videos AS v WHERE v.user_id = $1`,
    [userId, days],
  );
  await db.sql(
    `INSERT INTO stats_points (post_id, at, views, likes, comments)
     SELECT p.id, ((($2::date - $3::integer + d)::timestamp + interval '12 hours') AT TIME ZONE 'Europe/Kiev'), p.video_id * d, d, d % 7
       FROM video_posts AS p JOIN videos AS v ON v.id = p.video_id CROSS JOIN generate_series(1, $3::integer) AS d
      WHERE v.user_id = $1`,
    [userId, lastDay, days],
  );
}
