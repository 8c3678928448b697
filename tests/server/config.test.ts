import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { statsCron } from '../../server/jobs/definitions';

const load = (env: Record<string, string>) => loadConfig(env, []);

describe('platform settings', () => {
  it('talks to the built-in sandbox unless PLATFORMS=live', () => {
    expect(load({}).platforms).toBe('sandbox');
    expect(load({ PLATFORMS: 'live', PUBLIC_URL: 'https://office.example' }).platforms).toBe('live');
    expect(() => load({ PLATFORMS: 'production' })).toThrow('PLATFORMS must be one of sandbox, live, got "production"');
  });

  it('takes PUBLIC_URL without a trailing slash; http://HOST:PORT in sandbox mode, required in live mode', () => {
    expect(load({}).publicUrl).toBe('http://127.0.0.1:3000');
    expect(load({ HOST: '0.0.0.0', PORT: '4000' }).publicUrl).toBe('http://127.0.0.1:4000');
    expect(() => load({ PLATFORMS: 'live' })).toThrow('PUBLIC_URL is required with PLATFORMS=live');
    expect(load({ PUBLIC_URL: 'https://office.example/' }).publicUrl).toBe('https://office.example');
    expect(load({ PUBLIC_URL: 'https://office.example/shorts/' }).publicUrl).toBe('https://office.example/shorts');
    expect(() => load({ PUBLIC_URL: 'ftp://office.example' })).toThrow('PUBLIC_URL must be an http(s) URL');
  });

  it('keeps the platforms’ own token lifetimes and caps in the sandbox unless SANDBOX_* settings shorten them', () => {
    expect(load({}).sandboxPlatforms).toEqual({ tokenTtlSeconds: undefined, tiktokUnaudited: false, limits: {} });
    expect(
      load({
        SANDBOX_TOKEN_TTL_SECONDS: '30',
        SANDBOX_TIKTOK_UNAUDITED: '1',
        SANDBOX_TIKTOK_DAILY_POSTS: '3',
        SANDBOX_TIKTOK_INITS_PER_MINUTE: '100',
        SANDBOX_INSTAGRAM_DAILY_POSTS: '2',
        SANDBOX_YOUTUBE_DAILY_UPLOADS: '1',
        SANDBOX_YOUTUBE_DAILY_UNITS: '50',
      }).sandboxPlatforms,
    ).toEqual({
      tokenTtlSeconds: 30,
      tiktokUnaudited: true,
      limits: { tiktokDailyPosts: 3, tiktokInitsPerMinute: 100, instagramDailyPosts: 2, youtubeDailyUploads: 1, youtubeDailyUnits: 50 },
    });
    expect(() => load({ SANDBOX_TOKEN_TTL_SECONDS: '0' })).toThrow('SANDBOX_TOKEN_TTL_SECONDS must be a positive whole number');
    expect(() => load({ SANDBOX_YOUTUBE_DAILY_UNITS: 'lots' })).toThrow('SANDBOX_YOUTUBE_DAILY_UNITS must be a positive whole number');
  });
});

describe('statistics sync interval', () => {
  it('syncs every 15 minutes by default and turns STATS_INTERVAL into a Europe/Kiev cron line', () => {
    expect(load({}).statsIntervalMinutes).toBe(15);
    expect(statsCron(load({}).statsIntervalMinutes)).toBe('*/15 * * * *');
    expect(statsCron(load({ STATS_INTERVAL: '5' }).statsIntervalMinutes)).toBe('*/5 * * * *');
    expect(statsCron(load({ STATS_INTERVAL: '120' }).statsIntervalMinutes)).toBe('0 */2 * * *');
    expect(statsCron(load({ STATS_INTERVAL: '1440' }).statsIntervalMinutes)).toBe('0 0 * * *');
  });

  it('refuses intervals a cron line cannot keep evenly', () => {
    expect(() => load({ STATS_INTERVAL: '7' })).toThrow('STATS_INTERVAL must divide an hour');
    expect(() => load({ STATS_INTERVAL: '90' })).toThrow('STATS_INTERVAL must divide an hour');
    expect(() => load({ STATS_INTERVAL: 'often' })).toThrow('STATS_INTERVAL must be a positive whole number');
  });
});

describe('media storage settings', () => {
  it('keeps media on the disk under DATA_DIR unless STORAGE_URL names a bucket', () => {
    expect(load({}).storage).toEqual({ kind: 'disk' });
    expect(load({ STORAGE_URL: 's3://shorts-media/office/', S3_ENDPOINT: 'http://minio:9000/', S3_FORCE_PATH_STYLE: '1' }).storage).toEqual(
      {
        kind: 's3',
        bucket: 'shorts-media',
        prefix: 'office/',
        endpoint: 'http://minio:9000',
        region: 'us-east-1',
        forcePathStyle: true,
      },
    );
    expect(load({ STORAGE_URL: 's3://shorts-media', S3_REGION: 'eu-central-1' }).storage).toEqual({
      kind: 's3',
      bucket: 'shorts-media',
      prefix: '',
      endpoint: undefined,
      region: 'eu-central-1',
      forcePathStyle: false,
    });
  });

  it('refuses a storage address it cannot use', () => {
    expect(() => load({ STORAGE_URL: 'https://bucket.example' })).toThrow('STORAGE_URL must look like s3://bucket');
    expect(() => load({ STORAGE_URL: 's3://Bad_Bucket' })).toThrow('STORAGE_URL must look like s3://bucket');
    expect(() => load({ STORAGE_URL: 's3://media', S3_ENDPOINT: 'minio:9000' })).toThrow('S3_ENDPOINT must be an http(s) URL');
  });
});

describe('engine and platform-call settings', () => {
  it('polls every 0.5 s, runs renders by cores and 32 publishes, takes a worker silent for 20 s for dead', () => {
    expect(load({}).engine).toEqual({
      pollSeconds: 0.5,
      backgroundPollSeconds: 5,
      renderConcurrency: Math.max(1, Math.floor(os.availableParallelism() / 4)),
      publishConcurrency: 32,
      heartbeatSeconds: 5,
      deadAfterSeconds: 20,
      statsConcurrency: 16,
      statsSync: {
        freshHours: 48,
        freshEveryMinutes: 15,
        recentDays: 30,
        recentEveryMinutes: 360,
        oldEveryMinutes: 1440,
        youtubeDailyUnits: 10_000,
        youtubePublishReserve: 5000,
        tiktokQueriesPerMinute: 600,
        instagramCallsPerHour: 150,
      },
      alertGroupSeconds: 60,
      reach: { recentPosts: 5, historyPosts: 30, ratio: 0.1, settledHours: 48 },
    });
    expect(
      load({ PUBLISH_CONCURRENCY: '8', RENDER_CONCURRENCY: '2', WORKER_HEARTBEAT_SECONDS: '1', WORKER_DEAD_AFTER_SECONDS: '3' }).engine,
    ).toMatchObject({
      publishConcurrency: 8,
      renderConcurrency: 2,
      heartbeatSeconds: 1,
      deadAfterSeconds: 3,
    });
  });

  it('takes a Telegram bot token as @BotFather gives it, and refuses another without repeating it', () => {
    expect(load({}).telegramBotToken).toBeUndefined();
    const token = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw';
    expect(load({ TELEGRAM_BOT_TOKEN: token }).telegramBotToken).toBe(token);
    expect(load({ ALERT_GROUP_SECONDS: '30' }).engine.alertGroupSeconds).toBe(30);
    const refusal = (() => {
      try {
        load({ TELEGRAM_BOT_TOKEN: 'not-a-token-secret-words' });
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(refusal).toBe('TELEGRAM_BOT_TOKEN must be the token @BotFather gave, like 123456789:AAH…');
  });

  it('refuses polling faster than pg-boss allows and a death time live workers could hit', () => {
    expect(() => load({ JOB_POLL_SECONDS: '0.1' })).toThrow('JOB_POLL_SECONDS must be a number of at least 0.5');
    expect(() => load({ WORKER_HEARTBEAT_SECONDS: '5', WORKER_DEAD_AFTER_SECONDS: '8' })).toThrow(
      'at least twice WORKER_HEARTBEAT_SECONDS',
    );
    expect(() => load({ PUBLISH_CONCURRENCY: '0' })).toThrow('PUBLISH_CONCURRENCY must be a positive whole number');
  });

  it('reads the posting caps the engine plans with: TikTok 15 a day, YouTube 100 uploads a project a day', () => {
    expect(load({}).postingCaps).toEqual({ tiktokDailyPosts: 15, youtubeDailyUploads: 100 });
    expect(load({ TIKTOK_DAILY_POSTS: '4', YOUTUBE_DAILY_UPLOADS: '6' }).postingCaps).toEqual({
      tiktokDailyPosts: 4,
      youtubeDailyUploads: 6,
    });
    expect(() => load({ TIKTOK_DAILY_POSTS: 'many' })).toThrow(/TIKTOK_DAILY_POSTS/);
  });

  it('limits platform calls: connect 15 s, headers 120 s, idle 60 s, whole request 30 min', () => {
    expect(load({}).platformTimeouts).toEqual({ connectMs: 15_000, headersMs: 120_000, idleMs: 60_000, totalMs: 1_800_000 });
    expect(load({ PLATFORM_CONNECT_TIMEOUT_SECONDS: '2.5' }).platformTimeouts.connectMs).toBe(2500);
    expect(() => load({ PLATFORM_REQUEST_TIMEOUT_SECONDS: '-1' })).toThrow('PLATFORM_REQUEST_TIMEOUT_SECONDS must be a number');
  });
});

describe('reverse proxy trust', () => {
  it('trusts no peer unless TRUST_PROXY says how many proxies stand in front, or which addresses they have', () => {
    expect(load({}).trustProxy).toBe(false);
    expect(load({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(load({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(load({ TRUST_PROXY: '10.0.0.0/8, ::1,192.168.1.7' }).trustProxy).toEqual(['10.0.0.0/8', '::1', '192.168.1.7']);
    expect(load({ TRUST_PROXY: 'loopback,fd00::/8' }).trustProxy).toEqual(['loopback', 'fd00::/8']);
  });

  it('refuses a TRUST_PROXY it cannot read at start-up, in one sentence', () => {
    for (const raw of ['true', '10.0.0.0/33', '::1/129', 'proxy.internal', '10.0.0.1,', '1.5', '-1', '10.0.0.0/8/8']) {
      expect(() => load({ TRUST_PROXY: raw })).toThrow(`TRUST_PROXY must be the number of reverse proxies in front of the server`);
    }
  });
});

describe('the environment schema', () => {
  it('gives every unset or empty variable its default, and derives the ports and addresses from them', () => {
    const defaults = load({});
    expect(defaults).toMatchObject({
      host: '127.0.0.1',
      port: 3000,
      role: 'all',
      sandboxProxyPort: 3001,
      sandboxOrigin: 'http://127.0.0.1:3000',
      adminLogin: 'admin',
      accessTokenTtlSeconds: 900,
      refreshTokenTtlDays: 30,
      renderPreset: 'veryfast',
      maxUploadBytes: 2 * 1024 ** 3,
      proxyAllowPrivate: false,
      youtubeAppInTesting: false,
    });
    expect(load({ PORT: '', HOST: '', RENDER_PRESET: '' })).toEqual(defaults);
    expect(load({ PORT: '4000' }).sandboxProxyPort).toBe(4001);
    expect(load({ PORT: '65535' }).sandboxProxyPort).toBe(0);
    expect(load({ SANDBOX_PROXY_PORT: '0' }).sandboxProxyPort).toBe(0);
    expect(load({ HOST: '::1', PORT: '4000' }).sandboxOrigin).toBe('http://[::1]:4000');
    expect(load({ SANDBOX_ORIGIN: 'http://worker.example:3000/' }).sandboxOrigin).toBe('http://worker.example:3000');
  });

  it('answers one frozen object', () => {
    const config = load({});
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.engine.statsSync)).toBe(true);
  });

  it('keeps an access token to at most 15 minutes whatever ACCESS_TOKEN_TTL asks', () => {
    expect(load({ ACCESS_TOKEN_TTL: '60' }).accessTokenTtlSeconds).toBe(60);
    expect(load({ ACCESS_TOKEN_TTL: '3600' }).accessTokenTtlSeconds).toBe(900);
  });

  it('refuses a value of the wrong type with one sentence naming the variable and the value', () => {
    expect(() => load({ PORT: 'eighty' })).toThrow('PORT must be a positive whole number, got "eighty"');
    expect(() => load({ MAX_VARIANTS: '2.5' })).toThrow('MAX_VARIANTS must be a positive whole number, got "2.5"');
    expect(() => load({ STATS_FRESH_HOURS: 'soon' })).toThrow('STATS_FRESH_HOURS must be a number of at least more than 0, got "soon"');
    expect(() => load({ RENDER_PRESET: 'placebo' })).toThrow(
      'RENDER_PRESET must be one of ultrafast, superfast, veryfast, faster, fast, medium, slow, slower, veryslow, got "placebo"',
    );
    expect(() => load({ SANDBOX_PROXY_PORT: '70000' })).toThrow('SANDBOX_PROXY_PORT must be a port number or 0, got "70000"');
    expect(() => load({ SECRET_KEY: 'short' })).toThrow('SECRET_KEY must be at least 32 characters long');
  });

  it('takes the role from --role before ROLE, and split roles only with a shared Postgres', () => {
    expect(loadConfig({ ROLE: 'api', DATABASE_URL: 'postgres://db/office' }, ['--role=worker']).role).toBe('worker');
    expect(() => loadConfig({}, ['--role=admin'])).toThrow('--role must be one of all, api, worker, got "admin"');
    expect(() => load({ ROLE: 'api' })).toThrow('--role=api needs DATABASE_URL');
  });

  it('wants both halves of a platform app, or neither', () => {
    expect(load({}).platformApps.tiktok).toEqual({ id: 'sandbox-tiktok', secret: 'sandbox-tiktok-secret' });
    expect(load({ PLATFORMS: 'live', PUBLIC_URL: 'https://office.example' }).platformApps).toEqual({
      tiktok: null,
      instagram: null,
      facebook: null,
    });
    expect(load({ TIKTOK_CLIENT_KEY: 'key', TIKTOK_CLIENT_SECRET: 'secret' }).platformApps.tiktok).toEqual({ id: 'key', secret: 'secret' });
    expect(() => load({ TIKTOK_CLIENT_KEY: 'key' })).toThrow('set both TIKTOK_CLIENT_KEY and TIKTOK_CLIENT_SECRET, or neither');
    expect(() => load({ INSTAGRAM_APP_SECRET: 'secret' })).toThrow('set both INSTAGRAM_APP_ID and INSTAGRAM_APP_SECRET, or neither');
  });
});

describe('posting slots', () => {
  it('gives profiles without slots of their own 09:00–22:00 Kyiv time, 90 minutes apart, every day, unless POSTING_* say otherwise', () => {
    expect(load({}).postingSlots).toEqual({ from: '09:00', to: '22:00', minGapMinutes: 90, days: [1, 2, 3, 4, 5, 6, 7] });
    expect(load({ POSTING_FROM: '08:30', POSTING_TO: '20:00', POSTING_GAP_MINUTES: '0', POSTING_DAYS: '1, 2,3,4,5' }).postingSlots).toEqual(
      {
        from: '08:30',
        to: '20:00',
        minGapMinutes: 0,
        days: [1, 2, 3, 4, 5],
      },
    );
  });

  it('refuses slots a profile could not be given, naming the variable', () => {
    expect(() => load({ POSTING_FROM: '9:00' })).toThrow('POSTING_FROM must be a Kyiv time HH:MM on 5-minute steps, got "9:00"');
    expect(() => load({ POSTING_TO: '08:00' })).toThrow('POSTING_TO must be a Kyiv time HH:MM on 5-minute steps, after POSTING_FROM');
    expect(() => load({ POSTING_GAP_MINUTES: '1441' })).toThrow('POSTING_GAP_MINUTES must be a whole number of minutes from 0 to 1440');
    expect(() => load({ POSTING_GAP_MINUTES: '-5' })).toThrow('POSTING_GAP_MINUTES must be a whole number of minutes from 0 to 1440');
    expect(() => load({ POSTING_DAYS: '1,8' })).toThrow('POSTING_DAYS must be ISO weekdays from 1 (Monday) to 7 (Sunday)');
    expect(() => load({ POSTING_DAYS: '1,1' })).toThrow('POSTING_DAYS must be ISO weekdays');
  });
});
