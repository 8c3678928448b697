/**
 * Statistics sync benchmark (issue 23): the sync per profile and platform against the sync as it
 * was (bench/stats-baseline.ts), in one process with the app, its worker and the sandbox, on a
 * fresh Postgres database (`bench_stats_wt23` on 127.0.0.1:5432, or BENCH_DATABASE_URL's server).
 *
 * Seeds BENCH_STATS_POSTS published posts (30 000) over BENCH_STATS_PROFILES profiles (300), a
 * third on each platform, each profile's posts aged 10 % under 48 h, 20 % under 30 days, the rest
 * older; the sandbox knows every one. Every profile's proxy is a relay adding BENCH_STATS_DELAY_MS
 * (150) to each request. Per round (BENCH_STATS_ROUNDS, 3, interleaved): a sync of everything, a
 * sync of the fresh tier only, and the old sync over one profile per platform (its 150 ms calls
 * one after another would take over an hour for all posts; it is extrapolated linearly, as its
 * cost is one request per post). Prints requests answered by the sandbox (GET /sandbox/_calls)
 * against the batched floor, wall time, peak RSS above idle and the slowest /healthz.
 *
 *   npm run bench:stats
 *   BENCH_STATS_POSTS=300000 BENCH_STATS_ROUNDS=1 BENCH_STATS_BASELINE=0 npm run bench:stats
 */
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../server/app';
import { deriveKeys } from '../server/auth/keys';
import { hashPassword } from '../server/auth/passwords';
import { startSession } from '../server/auth/tokens';
import { engineSettings, loadConfig, platformTimeoutSettings, postingCapSettings } from '../server/config';
import { platformNetwork } from '../server/net/http';
import type { Database } from '../server/db/connect';
import type { JobContext } from '../server/jobs/types';
import { startQueue } from '../server/jobs/queue';
import { planStatsSyncs, syncProfileStatsJobName } from '../server/jobs/sync-stats';
import { diskStorage } from '../server/media/storage';
import { resolveMediaTools } from '../server/media/tools';
import type { MediaServices } from '../server/media/services';
import { connectors } from '../server/platforms/registry';
import { issueSandboxToken, SandboxState } from '../server/sandbox/index';
import { startLoopbackProxy } from '../server/sandbox/loopback-proxy';
import type { Platform } from '../server/platforms/types';
import { emptyAccountForm } from '../src/lib/schemas';
import { answerSandboxConsent } from '../tests/fixtures/sandbox-consent';
import { startDelayingRelay } from '../tests/server/delaying-relay';
import { withFreshPostgres } from './list-seed';
import { baselineSyncStats } from './stats-baseline';
import { systemClock } from '../server/clock';

const posts = Number(process.env.BENCH_STATS_POSTS ?? 30_000);
const profiles = Number(process.env.BENCH_STATS_PROFILES ?? 300);
const delayMs = Number(process.env.BENCH_STATS_DELAY_MS ?? 150);
const rounds = Number(process.env.BENCH_STATS_ROUNDS ?? 3);
const withBaseline = process.env.BENCH_STATS_BASELINE !== '0';
const platforms: Platform[] = ['youtube', 'tiktok', 'instagram'];
const postsPerProfile = Math.floor(posts / profiles);

interface Measured {
  ms: number;
  /** Every request the sandbox answered, token refreshes included. */
  requests: number;
  /** Only the requests that read figures. */
  statsRequests: number;
  floor: number;
  read: number;
  peakRssMb: number;
  slowestHealthzMs: number;
}

const statsRoutes = [/youtube\/v3\/videos$/, /video\/query\/$/, /^POST \/graph\.facebook\.com\/?$/, /\/insights$/];

async function main() {
  await withFreshPostgres('bench_stats_wt23', async (db) => {
    const state = new SandboxState({});
    const keys = deriveKeys(crypto.randomBytes(32).toString('hex'));
    const tokenSettings = { keys, accessTokenTtlSeconds: 3600, refreshTokenTtlDays: 30 };
    const mediaDir = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-stats-'));
    const media = { storage: diskStorage(mediaDir), tools: resolveMediaTools(loadConfig()), settings: {} } as unknown as MediaServices;
    const platformSettings = {
      mode: 'sandbox' as const,
      sandboxOrigin: 'http://127.0.0.1:9',
      statsIntervalMinutes: 15,
      postingCaps: postingCapSettings(),
      network: platformNetwork({ timeouts: platformTimeoutSettings(), policy: { mode: 'sandbox', allowPrivate: false } }),
      clock: systemClock,
    };
    const log = pino({ level: 'silent' });
    const engine = { ...engineSettings(process.env) };
    const queue = await startQueue({ db, log, work: true, context: { db, media, keys, platforms: platformSettings }, engine });
    const app = await buildApp({ clock: systemClock, db, keys, tokenSettings, queue, media, sandbox: { state } });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    platformSettings.sandboxOrigin = base;
    const proxy = await startLoopbackProxy();
    const relay = await startDelayingRelay(proxy.port, delayMs);

    console.log(`seeding ${profiles} profiles × ${postsPerProfile} posts, proxies adding ${delayMs} ms a request …`);
    const seeded = Date.now();
    const accountIds = await seed(db, app, base, state, relay.url, keys);
    console.log(`seeded in ${((Date.now() - seeded) / 1000).toFixed(0)} s`);

    const context: JobContext = {
      db,
      log,
      media,
      keys,
      platforms: platformSettings,
      queue,
      signal: new AbortController().signal,
      jobId: crypto.randomUUID(),
      engine,
    };

    const measure = async (work: () => Promise<number>): Promise<Measured> => {
      const floor = await batchedFloor(db);
      state.resetCalls();
      const idle = process.memoryUsage().rss;
      let peak = idle;
      let slowest = 0;
      let running = true;
      const sampler = (async () => {
        while (running) {
          peak = Math.max(peak, process.memoryUsage().rss);
          const started = performance.now();
          await fetch(`${base}/healthz`).then((response) => response.arrayBuffer());
          slowest = Math.max(slowest, performance.now() - started);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      })();
      const started = performance.now();
      const read = await work();
      const ms = performance.now() - started;
      running = false;
      await sampler;
      const all = Object.values(state.calls).flatMap((calls) => Object.entries(calls));
      return {
        ms,
        requests: all.reduce((sum, [, count]) => sum + count, 0),
        statsRequests: all
          .filter(([route]) => statsRoutes.some((pattern) => pattern.test(route)))
          .reduce((sum, [, count]) => sum + count, 0),
        floor,
        read,
        peakRssMb: (peak - idle) / 1024 ** 2,
        slowestHealthzMs: slowest,
      };
    };

    const newSync = async () => {
      const { rows: started } = await db.sql(`SELECT now() AS at`, []);
      await planStatsSyncs(context, context.platforms.clock.now());
      queue.nudge(syncProfileStatsJobName);
      for (;;) {
        const { rows } = await db.sql(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1 AND state < 'completed'`, [
          syncProfileStatsJobName,
        ]);
        if (rows[0].n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const { rows } = await db.sql(`SELECT count(*)::int AS n FROM video_posts WHERE stats_synced_at >= $1`, [started[0].at]);
      return rows[0].n as number;
    };

    const results: Record<string, Measured[]> = { everything: [], fresh: [], baseline: [] };
    const baselineProfiles = accountIds.slice(0, 3);
    for (let round = 1; round <= rounds; round++) {
      // Each round stands for another day: the quota ledger starts empty, as it would.
      await db.sql(`DELETE FROM stats_quota_ledger`, []);
      await db.sql(`UPDATE video_posts SET stats_due_at = NULL`, []);
      results.everything!.push(await measure(newSync));
      await db.sql(
        `UPDATE video_posts SET stats_due_at = CASE WHEN scheduled_at >= now() - interval '48 hours' THEN NULL ELSE now() + interval '1 day' END`,
        [],
      );
      results.fresh!.push(await measure(newSync));
      if (withBaseline) {
        await db.sql(`UPDATE video_posts SET stats_due_at = now() + interval '1 day'`, []);
        await db.sql(`UPDATE video_posts SET stats_due_at = NULL WHERE account_id = ANY($1::integer[])`, [baselineProfiles]);
        const baseline = await measure(async () => (await baselineSyncStats(context, baselineProfiles)).updated);
        // A baseline that reads nothing would make every ratio meaningless: stop rather than print it.
        if (baseline.read === 0) throw new Error('the baseline sync read no post: its profiles could not be reached');
        results.baseline!.push(baseline);
      }
      console.log(
        `round ${round}:`,
        JSON.stringify(Object.fromEntries(Object.entries(results).map(([name, list]) => [name, list.at(-1)]))),
      );
    }

    const fmt = (list: Measured[], pick: (entry: Measured) => number, digits = 0) =>
      list.map((entry) => pick(entry).toFixed(digits)).join(' / ');
    console.log(`\n${posts} posts, ${profiles} profiles, +${delayMs} ms a request; ${rounds} round(s), values per round`);
    console.log(
      '| sync | posts read | requests (all) | figure requests | batched floor | figure requests / floor | wall s | peak RSS above idle MB | slowest /healthz ms |',
    );
    console.log('|---|---|---|---|---|---|---|---|---|');
    for (const [name, list] of Object.entries(results)) {
      if (list.length === 0) continue;
      console.log(
        `| ${name} | ${fmt(list, (m) => m.read)} | ${fmt(list, (m) => m.requests)} | ${fmt(list, (m) => m.statsRequests)} | ${fmt(list, (m) => m.floor)} | ${fmt(list, (m) => m.statsRequests / m.floor, 2)} | ${fmt(list, (m) => m.ms / 1000, 1)} | ${fmt(list, (m) => m.peakRssMb)} | ${fmt(list, (m) => m.slowestHealthzMs)} |`,
      );
    }
    if (results.baseline!.length > 0) {
      const perPost = results.baseline!.map((m) => m.ms / m.read);
      console.log(
        `baseline extrapolated to ${posts} posts: ${perPost.map((ms) => ((ms * posts) / 60_000).toFixed(1)).join(' / ')} min, ${posts} figure requests`,
      );
    }
    const youtubeDaily = youtubeUnitsPerDay(1000, engine.statsSync);
    console.log(
      `YouTube units a day for 1 000 posts of one profile (by the cadence; ages as seeded): ${youtubeDaily.toFixed(0)} (${((youtubeDaily / 10_000) * 100).toFixed(1)} % of 10 000)`,
    );

    await relay.close();
    await proxy.close();
    await app.close();
    await queue.stop({ graceful: false, wait: true });
    await fs.rm(mediaDir, { recursive: true, force: true });
  });
}

/** The fewest calls that read every due post: per profile and platform, its due posts over the batch size. */
async function batchedFloor(db: Database): Promise<number> {
  const { rows } = await db.sql(
    `SELECT platform, count(*)::int AS n FROM video_posts
      WHERE status = 'done' AND remote_id IS NOT NULL AND stats_due_at IS NULL GROUP BY account_id, platform`,
    [],
  );
  return rows.reduce((sum, row) => sum + Math.ceil(row.n / connectors[row.platform as Platform].statsBatchSize), 0);
}

/** Calls a day of videos.list (1 unit each) for `count` posts aged as the bench seeds them. */
function youtubeUnitsPerDay(count: number, cadence: ReturnType<typeof engineSettings>['statsSync']): number {
  const perDay = (share: number, everyMinutes: number) => Math.ceil((count * share) / 50) * ((24 * 60) / everyMinutes);
  return perDay(0.1, cadence.freshEveryMinutes) + perDay(0.2, cadence.recentEveryMinutes) + perDay(0.7, cadence.oldEveryMinutes);
}

/** Age of a profile's `index`-th post in hours: 10 % under 48 h, 20 % under 30 days, the rest up to a year. */
function ageHours(index: number): number {
  const share = (index % 10) / 10;
  if (share < 0.1) return 1 + (index % 46);
  if (share < 0.3) return 49 + (index % (29 * 24 - 50));
  return 31 * 24 + (index % (300 * 24));
}

async function seed(
  db: Database,
  app: Awaited<ReturnType<typeof buildApp>>,
  base: string,
  state: SandboxState,
  proxyUrl: string,
  keys: ReturnType<typeof deriveKeys>,
) {
  const { rows: users } = await db.sql(`INSERT INTO users (login, password_hash, role) VALUES ('bench', $1, 'user') RETURNING id`, [
    await hashPassword('password123'),
  ]);
  const userId = users[0].id as number;
  const { accessToken } = await startSession(db, { keys, accessTokenTtlSeconds: 3600, refreshTokenTtlDays: 30 }, userId, Date.now());
  const headers = { authorization: `Bearer ${accessToken}` };
  const accountIds: number[] = [];
  const now = Date.now();
  for (let index = 0; index < profiles; index++) {
    const platform = platforms[index % 3]!;
    const label = `bench-${index}`;
    const fields =
      platform === 'youtube'
        ? { isActiveYouTube: true, YouTubeAuthClientId: `${label}.apps.googleusercontent.com`, YouTubeAuthClientSecret: 'client-secret' }
        : platform === 'tiktok'
          ? { isActiveTikTok: true, TikTiokAuthStr: issueSandboxToken('tiktok', label) }
          : { isActiveInstagram: true, InstagramLogin: label, InstagramPassword: 'secret' };
    const created = await app.inject({
      method: 'POST',
      url: '/api/accounts',
      headers,
      payload: { ...emptyAccountForm, proxy: proxyUrl, comments: label, ...fields },
    });
    if (created.statusCode !== 201) throw new Error(`creating a profile answered ${created.statusCode}: ${created.body}`);
    const accountId = created.json<{ id: number }>().id;
    accountIds.push(accountId);
    if (platform === 'youtube') {
      const link = await fetch(`${base}/api/accounts/connect-youtube/${accountId}`, { method: 'POST', headers });
      await answerSandboxConsent(link);
    }
    const sandboxAccount = Buffer.from(platform === 'youtube' ? `${label}.apps.googleusercontent.com` : label).toString('base64url');
    const { rows } = await db.sql(
      `INSERT INTO creation_requests (id_upload, user_id, status, count_video, source_key, published_at)
       VALUES (gen_random_uuid(), $1, 'published', $2, 'gone', now()) RETURNING id`,
      [userId, postsPerProfile],
    );
    const ages = Array.from({ length: postsPerProfile }, (_, position) => ageHours(position));
    await db.sql(
      `WITH v AS (INSERT INTO videos (request_id, user_id, account_id, position, status)
                  SELECT $1, $2, $3, g, 'success' FROM generate_series(0, $4::integer - 1) AS g RETURNING id, position)
       INSERT INTO video_posts (video_id, platform, account_id, status, scheduled_at, remote_id)
       SELECT id, $5, $3, 'done', now() - make_interval(secs => 3600 * ($6::float8[])[position + 1]), $7 || position FROM v`,
      [rows[0].id, userId, accountId, postsPerProfile, platform, ages, `p${accountId}x`],
    );
    for (let position = 0; position < postsPerProfile; position++) {
      state.videos.push({
        platform,
        id: `p${accountId}x${position}`,
        account: sandboxAccount,
        title: '',
        description: '',
        tags: [],
        bytes: 0,
        sha256: '',
        createdAt: now - ages[position]! * 3600_000,
        url: '',
      });
    }
  }
  // The sandbox indexes its videos on the first lookup after they change; build it now, not during a measured sync.
  state.findVideo(platforms[0]!, `p${accountIds[0]}x0`);
  return accountIds;
}

await main();
