/**
 * Capacity benchmark: the per-job costs docs/scaling.md builds its model from, measured on this
 * machine through the real paths.
 *
 * 1. Render: a 15-second 1280×720 clip rendered into 5 variants through the API of a real
 *    `npm start` (PGlite, its own worker), timed from upload to done, with the CPU-seconds its
 *    ffmpeg children used (from /proc) and the bytes of each variant.
 * 2. Publish: those 5 variants published through one profile to YouTube, TikTok and Instagram on
 *    the sandbox platforms, the profile's proxy being a relay here that counts every byte the
 *    uploads send; timed from the publish request to each post's done.
 * 3. Database: 20 000 videos of 4 000 requests, each published on 3 platforms, seeded on Postgres
 *    with the shapes step 2 wrote, and the bytes of every table and index per video; pg-boss's
 *    job rows per job likewise.
 *
 *   npm run bench:capacity
 *   RENDER_PRESET=veryfast FFMPEG_PATH=… npm run bench:capacity
 */
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import PgBoss from 'pg-boss';
import { loadConfig } from '../server/config';
import { resolveMediaTools, runTool } from '../server/media/tools';
import { issueSandboxToken } from '../server/sandbox/index';
import { adminLogin, adminPassword, freePort, startServer } from '../tests/e2e/harness';
import { withFreshPostgres } from './list-seed';
import { makeSourceClip } from './source-clip';
import { answerSandboxConsent } from '../tests/fixtures/sandbox-consent';

const variants = 5;
const clipSeconds = 15;
const config = loadConfig();
const tools = resolveMediaTools(config);

/** CPU seconds used by a process's finished children, from /proc (Linux). */
async function childCpuSeconds(pid: number): Promise<number> {
  const fields = (await fs.readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  // After "pid (comm) ", utime, stime, cutime, cstime are fields 12 to 15; ticks are 1/100 s on Linux.
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

/**
 * CPU seconds of the finished children of the server with this DATA_DIR: ffmpeg runs as a child
 * of its node process, which tsx starts as a child of its own, so both are counted.
 */
async function serverChildrenCpuSeconds(dataDir: string): Promise<number> {
  let total = 0;
  for (const entry of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const cmdline = await fs.readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    const environ = await fs.readFile(`/proc/${entry}/environ`, 'utf8').catch(() => '');
    if (cmdline.includes('server/main.ts') && environ.split('\0').includes(`DATA_DIR=${dataDir}`)) {
      total += await childCpuSeconds(Number(entry)).catch(() => 0);
    }
  }
  return total;
}

/** A TCP relay in front of `target` that counts the bytes sent towards it. */
async function countingRelay(target: string) {
  const { hostname, port } = new URL(target);
  let sent = 0;
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(port), hostname);
    client.on('data', (chunk) => {
      sent += chunk.length;
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => client.write(chunk));
    client.on('error', () => undefined).on('close', () => upstream.destroy());
    upstream.on('error', () => undefined).on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    sent: () => sent,
    close: () => server.close(),
  };
}

async function api(base: string, token: string | null, route: string, init: RequestInit = {}) {
  const response = await fetch(`${base}${route}`, {
    ...init,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(typeof init.body === 'string' ? { 'content-type': 'application/json' } : {}),
    },
  });
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${route}: ${response.status} ${await response.text()}`);
  const text = await response.text();
  return text ? JSON.parse(text) : undefined;
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function measureJobs(workDir: string) {
  const clip = path.join(workDir, 'clip.mp4');
  await makeSourceClip(tools, clip, clipSeconds);
  const proxyPort = await freePort();
  // Statistics sync every minute, logged at info with its duration, for the cost of reading them.
  // Fresh posts due for statistics within seconds of going out, as in the shared browser server.
  const server = await startServer({
    SANDBOX_PROXY_PORT: String(proxyPort),
    STATS_INTERVAL: '1',
    STATS_FRESH_MINUTES: '0.05',
    LOG_LEVEL: 'info',
  });
  const relay = await countingRelay(`http://127.0.0.1:${proxyPort}`);
  try {
    const base = server.baseUrl;
    const { accessToken } = await api(base, null, '/api/auth/login', {
      method: 'POST',
      body: JSON.stringify({ login: adminLogin, password: adminPassword }),
    });
    const photoIds: number[] = [];
    for (let index = 0; index < variants; index += 1) {
      const image = path.join(workDir, `bg-${index}.png`);
      await runTool(
        tools.ffmpeg,
        [
          '-nostdin',
          '-v',
          'error',
          '-y',
          '-f',
          'lavfi',
          '-i',
          `color=c=0x${(index * 3 + 1).toString(16).repeat(6).slice(0, 6)}:s=1080x1920`,
          '-frames:v',
          '1',
          image,
        ],
        60_000,
      );
      const form = new FormData();
      form.append('files', new Blob([await fs.readFile(image)], { type: 'image/png' }), `bg-${index}.png`);
      const uploaded: { data: { id: number }[] } = await api(base, accessToken, '/api/photo-bg', { method: 'POST', body: form });
      photoIds.push(...uploaded.data.map((photo) => photo.id));
    }

    const cpuBefore = await serverChildrenCpuSeconds(server.dataDir);
    const renderStarted = performance.now();
    const form = new FormData();
    form.append('countVideo', String(variants));
    form.append('photoIds', JSON.stringify(photoIds));
    form.append('file', new Blob([await fs.readFile(clip)], { type: 'video/mp4' }), 'clip.mp4');
    const { idUpload } = await api(base, accessToken, '/api/create-video/create', { method: 'POST', body: form });
    const rendered = await until(
      () => api(base, accessToken, `/api/create-video/request/${idUpload}`),
      (detail) => detail.status !== 'loading',
      30 * 60_000,
    );
    if (rendered.status !== 'success') throw new Error(`render failed: ${rendered.error}`);
    const renderWall = (performance.now() - renderStarted) / 1000;
    const renderCpu = (await serverChildrenCpuSeconds(server.dataDir)) - cpuBefore;
    const variantBytes: number[] = [];
    for (const video of rendered.video) {
      const head = await fetch(new URL(video.url, base), { method: 'HEAD' });
      variantBytes.push(Number(head.headers.get('content-length')));
    }

    const profile = await api(base, accessToken, '/api/accounts', {
      method: 'POST',
      body: JSON.stringify({
        proxy: relay.url,
        ipVersion: 'ipv4',
        comments: 'capacity',
        isActiveYouTube: true,
        isActiveTikTok: true,
        isActiveInstagram: true,
        YouTubeAuthClientId: 'capacity.apps.googleusercontent.com',
        YouTubeAuthClientSecret: 'client-secret',
        YouTubeLogin: '',
        YouTubePassword: '',
        InstagramLogin: 'capacity.insta',
        InstagramPassword: 'instagram-password',
        InstagramAccessToken: '',
        InstagramUserId: '',
        TikTiokAuthStr: issueSandboxToken('tiktok', 'capacity@tiktok'),
      }),
    });
    const { url: consent } = await api(base, accessToken, `/api/accounts/connect-youtube/${profile.id}`, { method: 'POST' });
    await answerSandboxConsent(consent);

    const sentBefore = relay.sent();
    const publishStarted = performance.now();
    await api(base, accessToken, `/api/upload-video/${idUpload}`, {
      method: 'POST',
      body: JSON.stringify({
        title: 'Capacity',
        description: 'Опис '.repeat(40),
        tags: ['one', 'two', 'three', 'four', 'five'],
        accounts: [{ id: profile.id, title: 'capacity', value: profile.id }],
        video: rendered.video.map((video: Record<string, unknown>) => ({ ...video, account: null, date: null })),
        inYouTube: true,
        inTikTok: true,
        inInstagram: true,
        date: null,
        // The choices YouTube and TikTok ask of every post (issue 22's options panel).
        options: {
          youtube: { selfDeclaredMadeForKids: false },
          tiktok: { privacyLevel: 'SELF_ONLY', disableComment: false, disableDuet: false, disableStitch: false },
        },
      }),
    });
    const published = await until(
      () => api(base, accessToken, `/api/upload-video/${idUpload}`),
      (detail) => detail.video.every((video: { status: string }) => video.status === 'success' || video.status === 'error'),
      30 * 60_000,
    );
    const publishWall = (performance.now() - publishStarted) / 1000;
    const failed = published.video.filter((video: { status: string }) => video.status !== 'success').length;
    if (failed > 0) throw new Error(`${failed} videos failed to publish`);
    const posts = variants * 3;
    // The sync runs per profile and platform, one log line each: their sum covers every post.
    const synced = await until(
      async () =>
        server
          .output()
          .split('\n')
          .filter((line) => line.includes('"statistics synced"'))
          .map((line) => JSON.parse(line) as { updated: number; ms: number })
          .reduce((sum, line) => ({ updated: sum.updated + line.updated, ms: sum.ms + line.ms }), { updated: 0, ms: 0 }),
      (sum) => sum.updated >= posts,
      3 * 60_000,
    );
    return {
      statsMsPerPost: synced.ms / synced.updated,
      renderWall,
      renderCpu,
      variantBytes,
      publishWall,
      posts,
      bytesPerPost: (relay.sent() - sentBefore) / posts,
    };
  } finally {
    relay.close();
    await server.stop();
  }
}

const seededRequests = 4_000;
const videosPerRequest = 5;
const seededJobs = 20_000;

/**
 * Bytes per video on Postgres: requests of 5 variants, each variant published on 3 platforms with
 * the columns a publish fills (links, remote ids, resumable progress, figures), every index
 * included; and pg-boss's bytes per job row.
 */
async function measureDatabase() {
  return withFreshPostgres('bench_capacity', async (db) => {
    const { rows: users } = await db.sql(
      `INSERT INTO users (login, password_hash, role) VALUES ('operator', repeat('h', 97), 'user') RETURNING id`,
      [],
    );
    const operator = users[0].id as number;
    await db.sql(
      `INSERT INTO accounts (user_id, proxy, comments, is_active_youtube, is_active_tiktok, is_active_instagram)
       SELECT $1, 'http://proxy-' || g || '.example:8080', 'profile ' || g, true, true, true FROM generate_series(1, 100) AS g`,
      [operator],
    );
    await db.sql(
      `INSERT INTO creation_requests (id_upload, user_id, status, count_video, source_key, title, description, tags,
                                      in_youtube, in_tiktok, in_instagram, published_at)
       SELECT gen_random_uuid(), $1, 'success', $3, 'requests/x/source.mp4', repeat('т', 60), repeat('о', 300),
              ARRAY['один', 'два', 'три', 'чотири', 'п''ять'], true, true, true, now()
         FROM generate_series(1, $2)`,
      [operator, seededRequests, videosPerRequest],
    );
    await db.sql(
      `INSERT INTO videos (request_id, user_id, account_id, position, status, file_key, poster_key, date,
                           url_youtube, url_instagram, url_tiktok, views, likes, comments, views_instagram, likes_instagram, comments_instagram)
       SELECT r.id, r.user_id, (SELECT min(id) FROM accounts) + (r.id + p) % 100, p, 'success',
              'requests/' || r.id_upload || '/' || p || '.mp4', 'requests/' || r.id_upload || '/' || p || '.jpg', now(),
              'https://www.youtube.com/watch?v=' || substr(md5(r.id || '-' || p), 1, 11),
              'https://www.instagram.com/reel/' || substr(md5(r.id || 'i' || p), 1, 11) || '/',
              'https://www.tiktok.com/@account/video/' || (7300000000000000000 + r.id * 10 + p),
              1000 + r.id, 100, 10, 2000 + r.id, 200, 20
         FROM creation_requests AS r CROSS JOIN generate_series(0, $1 - 1) AS p`,
      [videosPerRequest],
    );
    await db.sql(
      `INSERT INTO video_posts (video_id, platform, account_id, status, scheduled_at, job_token, remote_id, url, progress, attempts, stats_synced_at)
       SELECT v.id, platform, v.account_id, 'done', now(), gen_random_uuid(), substr(md5(v.id || platform), 1, 19), v.url_youtube,
              jsonb_build_object('uploadUrl', 'https://www.googleapis.com/upload/youtube/v3/videos?uploadType=resumable&upload_id=' || md5(v.id::text) || md5(platform), 'uploadedBytes', 10485760),
              1, now()
         FROM videos AS v CROSS JOIN unnest(ARRAY['youtube', 'tiktok', 'instagram']) AS platform`,
      [],
    );
    await db.sql('VACUUM ANALYZE', []);
    const { rows: tables } = await db.sql(
      `SELECT c.relname AS name, pg_total_relation_size(c.oid) AS bytes, c.reltuples::bigint AS rows
         FROM pg_class AS c JOIN pg_namespace AS n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind = 'r' AND c.relname IN ('creation_requests', 'videos', 'video_posts')
        ORDER BY c.relname`,
      [],
    );
    const videoCount = seededRequests * videosPerRequest;

    const boss = new PgBoss({
      db: { executeSql: (text: string, values?: unknown[]) => db.sql(text, values) },
      supervise: false,
      schedule: false,
    });
    await boss.start();
    await boss.createQueue('capacity-probe');
    // pg-boss 10 keeps jobs in a table partitioned by queue: the parent itself holds nothing.
    const jobBytes = async () =>
      Number((await db.sql(`SELECT sum(pg_total_relation_size(relid)) AS bytes FROM pg_partition_tree('pgboss.job')`, [])).rows[0].bytes);
    const before = await jobBytes();
    for (let sent = 0; sent < seededJobs; sent += 1000) {
      await boss.insert(
        Array.from({ length: 1000 }, (_, index) => ({
          name: 'capacity-probe',
          data: { postId: sent + index, token: crypto.randomUUID() },
          startAfter: new Date(Date.now() + 86_400_000),
        })),
      );
    }
    await db.sql('VACUUM ANALYZE', []);
    const perJob = ((await jobBytes()) - before) / seededJobs;
    await boss.stop({ graceful: false, wait: true });

    return {
      tables: tables.map((table) => ({ name: table.name as string, rows: Number(table.rows), bytes: Number(table.bytes) })),
      bytesPerVideo: tables.reduce((sum, table) => sum + Number(table.bytes), 0) / videoCount,
      videoCount,
      bytesPerJob: perJob,
    };
  });
}

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(2);

async function main() {
  console.log(`capacity: ffmpeg ${tools.ffmpeg}, preset ${config.renderPreset}, ${os.availableParallelism()} cores`);
  const workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-capacity-'));
  try {
    const jobs = await measureJobs(workDir);
    const meanVariant = jobs.variantBytes.reduce((sum, bytes) => sum + bytes, 0) / jobs.variantBytes.length;
    console.log(`\nrender: ${variants} variants of a ${clipSeconds} s 1280×720 clip, upload to done`);
    console.log(
      `  wall ${jobs.renderWall.toFixed(1)} s, ffmpeg CPU ${jobs.renderCpu.toFixed(1)} s = ${(jobs.renderCpu / variants).toFixed(2)} CPU-s per variant`,
    );
    console.log(`  variant size ${mb(meanVariant)} MiB (mean of ${jobs.variantBytes.map(mb).join(', ')})`);
    console.log(`\npublish: ${jobs.posts} posts (${variants} videos × YouTube, TikTok, Instagram) through one profile, sandbox`);
    console.log(
      `  wall ${jobs.publishWall.toFixed(1)} s for all; ${mb(jobs.bytesPerPost)} MiB sent through the proxy per post (${(jobs.bytesPerPost / meanVariant).toFixed(3)} × the file)`,
    );

    console.log(
      `\nstatistics: ${jobs.statsMsPerPost.toFixed(1)} ms per published post and platform, read one by one through the proxy (sandbox)`,
    );

    const database = await measureDatabase();
    console.log(`\ndatabase (Postgres): ${database.videoCount} videos of ${seededRequests} requests, 3 posts each`);
    for (const table of database.tables) console.log(`  ${table.name}: ${table.rows} rows, ${mb(table.bytes)} MiB with indexes`);
    console.log(`  ${(database.bytesPerVideo / 1024).toFixed(2)} KiB per video (request share, video, 3 posts, indexes)`);
    console.log(`  pg-boss: ${database.bytesPerJob.toFixed(0)} bytes per job row with its indexes`);
  } finally {
    await fs.rm(workDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
