/**
 * Plan import benchmark (issue 43.3): the preview of a 10 000-row plan file, a month of 60
 * profiles posting on YouTube, TikTok and Instagram (3 334 videos, each on one profile at one time
 * on its three platforms, two a day per profile at 10:00 and 14:00 Kyiv, one row in ten with an
 * empty date for the spread's plan to place, one in a hundred naming another operator's profile),
 * beside the month's 1 800 posts already planned (one a day per profile at 18:00). 09:00–22:00,
 * a 90-minute gap, the default caps.
 *
 * - product: the file read (readPlanFile), every row checked in a fixed number of statements and
 *   in memory (checkPlan), the preview stored (savePreview): what POST /api/plans/preview does;
 * - naive row by row: the file read alike, then per row one statement reading its video, its
 *   profile, its post already there and its profile's posts within the gap, checked in memory.
 *
 * Both on the same database in the same run, rounds interleaved; the target is the product's
 * median ≤ 2 000 ms on the 2-core machine. Then, once (it writes), the confirm of the last
 * preview as POST /api/plans/{planId}/commit does it: its rows checked again (checkPlan) and saved
 * in one transaction with their jobs (commitPlan), the jobs into pg-boss in the same database.
 *
 *   npm run bench:plan-import   # PGlite, and Postgres at BENCH_DATABASE_URL (default
 *                               # postgres://postgres@127.0.0.1:5432/postgres) when it answers
 */
import type { SessionUser } from '../src/lib/contract';
import { formatDate } from '../src/lib/kyiv-time';
import { dayjs } from '../src/lib/dates';
import { postingCapSettings, postingSlotSettings } from '../server/config';
import type { Database } from '../server/db/connect';
import { checkPlan, type CheckSettings } from '../server/services/plans/plan-check';
import { planCsv, readPlanFile, type PlanColumn } from '../server/services/plans/plan-file';
import PgBoss from 'pg-boss';
import { jobDefinitions, publishJob } from '../server/jobs/definitions';
import { commitPlan, linesOf, previewRows, savePreview } from '../server/services/plans/plan-store';
import { daysBetween } from '../server/services/planning/slot-plan';
import { median, onEachDatabase, perRound } from './list-seed';

const profilesCount = 60;
const rowsCount = 10_000;
const platformsUsed = ['youtube', 'tiktok', 'instagram'] as const;
const rounds = 3;
const gap = 90;
const minute = 60_000;
// Monday 30 November 2026, 06:00 in Kyiv: December ahead.
const now = Date.parse('2026-11-30T04:00:00Z');
const days = daysBetween('2026-12-01', '2026-12-31');

async function seed(db: Database) {
  const { rows: users } = await db.sql(
    `INSERT INTO users (login, password_hash, role) VALUES ('plans', repeat('h', 97), 'user'), ('other', repeat('h', 97), 'user') RETURNING id`,
    [],
  );
  const [owner, other] = [users[0].id as number, users[1].id as number];
  const { rows: profiles } = await db.sql(
    `INSERT INTO accounts (user_id, proxy, comments, is_active_youtube, is_active_tiktok, is_active_instagram, youtube_client_id,
                           posting_from, posting_to, posting_gap_minutes, posting_days)
     SELECT $1, 'http://127.0.0.1:9', 'profile ' || g, true, true, true, 'project-' || (g % 6), 540, 1320, $2, 127
       FROM generate_series(1, $3) AS g RETURNING id`,
    [owner, gap, profilesCount],
  );
  const { rows: foreign } = await db.sql(
    `INSERT INTO accounts (user_id, proxy, comments, is_active_youtube) VALUES ($1, 'http://127.0.0.1:9', 'чужий', true) RETURNING id`,
    [other],
  );
  for (const profile of profiles) {
    await db.sql(
      `INSERT INTO posting_defaults (account_id, platform, options) VALUES
         ($1, 'tiktok', '{"privacyLevel":"SELF_ONLY","disableComment":false,"disableDuet":false,"disableStitch":false}'),
         ($1, 'youtube', '{"privacyStatus":"public","selfDeclaredMadeForKids":false,"categoryId":"22"}')`,
      [profile.id],
    );
  }
  const videosCount = Math.ceil(rowsCount / platformsUsed.length);
  const { rows: requests } = await db.sql(
    `INSERT INTO creation_requests (id_upload, user_id, status, count_video, source_key, title)
     VALUES (gen_random_uuid(), $1, 'success', $2, 'gone', 'Грудень') RETURNING id`,
    [owner, videosCount],
  );
  const { rows: videos } = await db.sql(
    `INSERT INTO videos (request_id, user_id, position, status, file_key, duration_seconds)
     SELECT $1, $2, g - 1, 'noactive', 'v/' || g, 30 FROM generate_series(1, $3) AS g RETURNING id`,
    [requests[0].id, owner, videosCount],
  );
  // The month already planned: a post a day per profile at 18:00 Kyiv.
  const { rows: planned } = await db.sql(
    `INSERT INTO creation_requests (id_upload, user_id, status, count_video, source_key) VALUES (gen_random_uuid(), $1, 'published', 1, 'gone') RETURNING id`,
    [owner],
  );
  for (const [place, profile] of profiles.entries()) {
    const { rows: plannedVideos } = await db.sql(
      `INSERT INTO videos (request_id, user_id, position, status, file_key)
       SELECT $1, $2, $4 + g, 'publication', 'p/' || g FROM generate_series(1, $3) AS g RETURNING id`,
      [planned[0].id, owner, days.length, place * days.length],
    );
    await db.sql(
      `INSERT INTO video_posts (video_id, platform, account_id, status, scheduled_at)
       SELECT v, 'tiktok', $3, 'pending', t FROM unnest($1::int[], $2::timestamptz[]) AS x(v, t)`,
      [plannedVideos.map((row) => row.id), days.map((day) => dayjs.tz(`${day}T18:00`, 'Europe/Kiev').toDate()), profile.id],
    );
  }

  // The file: video i on profile i mod 60, its day and hour by its turn on that profile.
  const lines: Record<PlanColumn, string>[] = [];
  for (const [index, video] of videos.entries()) {
    const profile = profiles[index % profilesCount]!;
    const turn = Math.floor(index / profilesCount);
    const at = dayjs.tz(`${days[Math.floor(turn / 2) % days.length]}T${turn % 2 === 0 ? '10:00' : '14:00'}`, 'Europe/Kiev').valueOf();
    for (const platform of platformsUsed) {
      if (lines.length === rowsCount) break;
      const row = lines.length;
      lines.push({
        videoId: String(video.id),
        idUpload: '',
        profile: row % 100 === 99 ? `#${foreign[0].id}` : `#${profile.id} profile ${index % profilesCount}`,
        platform,
        date: index % 10 === 9 ? '' : formatDate(at),
        title: `Відео ${index + 1}`,
        description: 'Опис',
        tags: 'грудень план',
      });
    }
  }
  return { owner: { id: owner, login: 'plans', role: 'user' } satisfies SessionUser, file: Buffer.from(planCsv(lines)) };
}

const settings: CheckSettings = {
  now,
  installationSlots: postingSlotSettings(),
  postingCaps: postingCapSettings(),
  liveCapOf: async () => ({ limit: 25, windowSeconds: 86_400 }),
};

/** Row by row: one statement per row for its video, profile, post already there and the profile's posts within the gap. */
async function naivePreview(db: Database, owner: SessionUser, file: Buffer) {
  const lines = await readPlanFile(file);
  let ok = 0;
  const planned = new Map<number, number[]>();
  for (const { cells } of lines) {
    const at = cells.date ? dayjs.tz(cells.date.replace(/^(\d\d)\.(\d\d)\.(\d{4}) /, '$3-$2-$1T'), 'Europe/Kiev').valueOf() : null;
    const accountId = Number(/^#(\d+)/.exec(cells.profile)![1]);
    const { rows } = await db.sql(
      `SELECT v.id, v.file_key IS NOT NULL AS ready, a.id AS account_id, a.posting_gap_minutes AS gap,
              (SELECT count(*)::int FROM video_posts p WHERE p.video_id = v.id AND p.platform = $3) AS existing,
              (SELECT array_agg(extract(epoch FROM p.scheduled_at) * 1000) FROM video_posts p
                WHERE p.account_id = a.id AND p.status = 'pending'
                  AND p.scheduled_at > $4::timestamptz - interval '1 day' AND p.scheduled_at < $4::timestamptz + interval '1 day') AS near
         FROM videos v LEFT JOIN accounts a ON a.id = $2 AND a.user_id = $5
        WHERE v.id = $1 AND v.user_id = $5`,
      [Number(cells.videoId), accountId, cells.platform, new Date(at ?? now), owner.id],
    );
    const row = rows[0];
    if (!row?.ready || row.account_id === null || row.existing > 0 || at === null || at < now) continue;
    const taken = [...((row.near as number[] | null) ?? []).map(Number), ...(planned.get(accountId) ?? [])];
    if (taken.some((other) => other !== at && Math.abs(other - at) < (row.gap as number) * minute)) continue;
    planned.set(accountId, [...(planned.get(accountId) ?? []), at]);
    ok += 1;
  }
  return ok;
}

async function measure(label: string, db: Database) {
  const { owner, file } = await seed(db);
  const product: number[] = [];
  const naive: number[] = [];
  let summary = '';
  let naiveOk = 0;
  let planId = '';
  for (let round = 0; round < rounds; round++) {
    let started = performance.now();
    const lines = await readPlanFile(file);
    const rows = await checkPlan(db, owner, lines, settings);
    ({ planId } = await savePreview(db, owner.id, rows, now));
    product.push(performance.now() - started);
    const count = (state: string) => rows.filter((row) => row.state === state).length;
    summary = `${rows.length} rows: ${count('new')} ok, ${count('refused')} refused`;
    started = performance.now();
    naiveOk = await naivePreview(db, owner, file);
    naive.push(performance.now() - started);
  }
  console.log(`\n${label}: ${rowsCount} rows, ${profilesCount} profiles, ${(file.length / 1024).toFixed(0)} KB of CSV`);
  console.log(`  product  ${summary}  ${perRound(product)}`);
  console.log(`  naive    ${naiveOk} ok  ${perRound(naive)}`);
  console.log(`  product/naive ${(median(product) / median(naive)).toFixed(3)}; target: product median ≤ 2000 ms`);

  const boss = new PgBoss({
    db: { executeSql: (text: string, values?: unknown[]) => db.sql(text, values) },
    supervise: false,
    schedule: false,
  });
  await boss.start();
  for (const definition of jobDefinitions) await boss.createQueue(definition.name, { name: definition.name, ...definition.queueOptions });
  try {
    const started = performance.now();
    const previewed = (await previewRows(db, owner.id, planId, now)).filter((row) => row.state !== 'refused');
    const rechecked = await checkPlan(db, owner, linesOf(previewed), settings);
    const checked = performance.now();
    const saved = await commitPlan(db, boss, { planId, userId: owner.id }, rechecked, new Date(now));
    const done = performance.now();
    const jobs = (await db.sql(`SELECT count(*)::int AS count FROM pgboss.job WHERE name = $1`, [publishJob.name])).rows[0].count;
    console.log(
      `  confirm  ${saved} posts, ${jobs} jobs: ${(done - started).toFixed(0)} ms (checked again ${(checked - started).toFixed(0)}, saved ${(done - checked).toFixed(0)})`,
    );
  } finally {
    await boss.stop({ graceful: false, wait: true });
  }
}

await onEachDatabase('plan_import', measure);
