/**
 * Spread benchmark (issue 31.5): 400 videos over 60 profiles and 7 days, each profile with 21
 * posts already planned that week (3 a day), posting on YouTube, TikTok and Instagram (caps: TikTok
 * 15 a moving day, Instagram 25, YouTube 100 a Pacific day per Google project of 10 profiles),
 * 09:00–22:00 Kyiv with a 90-minute gap; 20 profiles with 40 posts of history each.
 *
 * - product: spreadPublication (server/services/planning/spread.ts), the ledger read once, placed in
 *   memory: 'soonest', the naive's question, and (issue 43.1) 'even', the default, beside it;
 * - naive first-fit: per video, re-read its profile's slots and posts (and what was proposed so
 *   far), then walk the 5-minute grid checking each minute mark against every post.
 *
 * Both answer the same question on the same database in the same run, rounds interleaved; the
 * target is the product's median ≤ 300 ms on the 2-core machine.
 *
 *   npm run bench:spread     # PGlite, and Postgres at BENCH_DATABASE_URL (default
 *                            # postgres://postgres@127.0.0.1:5432/postgres) when it answers
 */
import { postingCapSettings, postingSlotSettings } from '../server/config';
import type { Database } from '../server/db/connect';
import { accounts } from '../server/db/schema';
import { kyivWallTime } from '../src/lib/kyiv-time';
import { dayjs } from '../src/lib/dates';
import { spreadPublication, type SpreadSettings } from '../server/services/planning/spread';
import { profileSlots } from '../server/services/planning/posting-slots';
import { daysBetween } from '../server/services/planning/slot-plan';
import { eq } from 'drizzle-orm';
import { median, onEachDatabase, perRound } from './list-seed';

const profilesCount = 60;
const videosCount = 400;
const plannedPerDay = 3;
const rounds = 5;
const minute = 60_000;
const day = 24 * 60 * minute;
const gap = 90;
// Monday 7 December 2026, 06:00 in Kyiv: the week ahead is free but for what is planned.
const now = Date.parse('2026-12-07T04:00:00Z');
const from = '2026-12-07';
const to = '2026-12-13';

async function seed(db: Database) {
  const { rows: users } = await db.sql(
    `INSERT INTO users (login, password_hash, role) VALUES ('spread', repeat('h', 97), 'user') RETURNING id`,
    [],
  );
  const owner = users[0].id as number;
  await db.sql(
    `INSERT INTO accounts (user_id, proxy, comments, is_active_youtube, is_active_tiktok, is_active_instagram, youtube_client_id,
                           posting_from, posting_to, posting_gap_minutes, posting_days)
     SELECT $1, 'http://127.0.0.1:9', 'profile ' || g, true, true, true, 'project-' || (g % 6), 540, 1320, $2, 127
       FROM generate_series(1, $3) AS g`,
    [owner, gap, profilesCount],
  );
  const profiles = (await db.orm.select().from(accounts).where(eq(accounts.userId, owner))).sort((a, b) => a.id - b.id);

  const { rows: requests } = await db.sql(
    `INSERT INTO creation_requests (id_upload, user_id, status, count_video, source_key) VALUES (gen_random_uuid(), $1, 'success', $2, 'gone') RETURNING id`,
    [owner, videosCount],
  );
  const requestId = requests[0].id as number;
  const { rows: videoRows } = await db.sql(
    `INSERT INTO videos (request_id, user_id, position, status, file_key)
     SELECT $1, $2, g - 1, 'noactive', 'v/' || g FROM generate_series(1, $3) AS g RETURNING id`,
    [requestId, owner, videosCount],
  );
  const newRequest = async () =>
    (
      await db.sql(
        `INSERT INTO creation_requests (id_upload, user_id, status, count_video, source_key) VALUES (gen_random_uuid(), $1, 'published', 1, 'gone') RETURNING id`,
        [owner],
      )
    ).rows[0].id as number;
  // The week's planned posts: 3 a day per profile at 10:00, 14:00 and 18:00 Kyiv, on each platform.
  const days = daysBetween(from, to);
  for (const profile of profiles) {
    const { rows: planned } = await db.sql(
      `INSERT INTO videos (request_id, user_id, position, status, file_key)
       SELECT $1, $2, g, 'publication', 'p/' || g FROM generate_series(1, $3) AS g RETURNING id`,
      [await newRequest(), owner, days.length * plannedPerDay],
    );
    const times = days.flatMap((date) => ['10:00', '14:00', '18:00'].map((clock) => dayjs.tz(`${date}T${clock}`, 'Europe/Kiev').toDate()));
    await db.sql(
      `INSERT INTO video_posts (video_id, platform, account_id, status, scheduled_at)
       SELECT v, p, $3, 'pending', t FROM unnest($1::int[], $2::timestamptz[]) AS x(v, t), unnest(ARRAY['youtube','tiktok','instagram']) AS p`,
      [planned.map((row) => row.id), times, profile.id],
    );
  }
  // History: 20 profiles with 40 posts each over the last 40 days, 48-hour figures read.
  for (const profile of profiles.slice(0, 20)) {
    const { rows: past } = await db.sql(
      `INSERT INTO videos (request_id, user_id, position, status, file_key)
       SELECT $1, $2, g, 'success', 'h/' || g FROM generate_series(1, 40) AS g RETURNING id`,
      [await newRequest(), owner],
    );
    const { rows: posts } = await db.sql(
      `INSERT INTO video_posts (video_id, platform, account_id, status, scheduled_at, published_at)
       SELECT v, 'tiktok', $2, 'done', $3::timestamptz - (o * interval '1 day') + (o % 13) * interval '1 hour', $3::timestamptz - (o * interval '1 day') + (o % 13) * interval '1 hour'
         FROM unnest($1::int[]) WITH ORDINALITY AS x(v, o) RETURNING id, published_at`,
      [past.map((row) => row.id), profile.id, new Date(now - 2 * day)],
    );
    await db.sql(
      `INSERT INTO stats_points (post_id, at, views, likes, comments)
       SELECT id, published_at + interval '40 hours', (id * 7919) % 5000, 0, 0 FROM video_posts WHERE id = ANY($1::int[])`,
      [posts.map((row) => row.id)],
    );
  }
  return { profiles, videos: videoRows.map((row) => row.id as number) };
}

const settings: SpreadSettings = {
  now,
  installationSlots: postingSlotSettings(),
  postingCaps: postingCapSettings(),
  liveCapOf: async () => ({ limit: 25, windowSeconds: 86_400 }),
};

/**
 * The naive first-fit: per video, the profile's slots and posts are read again, and every
 * five-minute mark of every day is checked against every post, one after another.
 */
async function naiveSpread(db: Database, profileIds: number[], videoIds: number[]) {
  const proposed: { accountId: number; at: number }[] = [];
  const caps = postingCapSettings();
  for (const index of videoIds.keys()) {
    const accountId = profileIds[index % profileIds.length]!;
    const slots = (await profileSlots(db, [accountId], settings.installationSlots)).get(accountId)!;
    const { rows } = await db.sql(
      `SELECT platform, scheduled_at AS at FROM video_posts WHERE account_id = $1 AND status = 'pending' AND scheduled_at >= $2 AND scheduled_at < $3
       UNION ALL SELECT platform, published_at AS at FROM video_posts WHERE account_id = $1 AND status = 'done' AND published_at >= $2 AND published_at < $3`,
      [accountId, new Date(now - 2 * day), new Date(now + 9 * day)],
    );
    const taken = [
      ...rows.filter((row) => row.platform === 'tiktok').map((row) => new Date(row.at as string).getTime()),
      ...proposed.filter((item) => item.accountId === accountId).map((item) => item.at),
    ];
    const [fromH, fromM] = slots.from.split(':').map(Number) as [number, number];
    const [toH, toM] = slots.to.split(':').map(Number) as [number, number];
    let found: number | null = null;
    for (let at = Math.ceil((now + 15 * minute) / (5 * minute)) * 5 * minute; at < now + 7 * day && found === null; at += 5 * minute) {
      const clock = kyivWallTime(at).slice(11);
      const minutes = Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3));
      if (minutes < fromH * 60 + fromM || minutes > toH * 60 + toM) continue;
      if (taken.some((other) => Math.abs(other - at) < slots.minGapMinutes * minute)) continue;
      if (taken.filter((other) => other > at - day && other <= at).length >= caps.tiktokDailyPosts) continue;
      found = at;
    }
    if (found !== null) proposed.push({ accountId, at: found });
  }
  return proposed.length;
}

async function measure(label: string, db: Database) {
  const { profiles, videos } = await seed(db);
  const input = {
    from,
    to,
    accounts: profiles.map((profile) => ({ id: profile.id })),
    inYouTube: true,
    inTikTok: true,
    inInstagram: true,
    video: videos.map((id) => ({ id })),
  };
  const product: number[] = [];
  const even: number[] = [];
  const naive: number[] = [];
  let placed = 0;
  let evenPlaced = 0;
  let naivePlaced = 0;
  for (let round = 0; round < rounds; round++) {
    let started = performance.now();
    const answer = await spreadPublication(db, { ...input, mode: 'soonest' }, profiles, settings);
    product.push(performance.now() - started);
    placed = answer.data.length;
    started = performance.now();
    evenPlaced = (await spreadPublication(db, input, profiles, settings)).data.length;
    even.push(performance.now() - started);
    started = performance.now();
    naivePlaced = await naiveSpread(
      db,
      profiles.map((profile) => profile.id),
      videos,
    );
    naive.push(performance.now() - started);
  }
  console.log(`\n${label}: ${videosCount} videos, ${profilesCount} profiles, 7 days, ${profilesCount * 21} posts planned`);
  console.log(`  product  placed ${placed}/${videosCount}  ${perRound(product)}`);
  console.log(`  even     placed ${evenPlaced}/${videosCount}  ${perRound(even)}`);
  console.log(`  naive    placed ${naivePlaced}/${videosCount}  ${perRound(naive)}`);
  console.log(`  product/naive ${(median(product) / median(naive)).toFixed(3)}; target: product median ≤ 300 ms`);
}

await onEachDatabase('spread', measure);
