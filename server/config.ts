import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { PlatformsMode } from './platforms/types';
import type { OAuthApp } from './platforms/oauth-links';
import type { SandboxLimits } from './platforms/sandbox/caps';
import type { S3Settings } from './media/s3-storage';

export type Role = 'all' | 'api' | 'worker';

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  databaseUrl: string | undefined;
  role: Role;
  secretKey: string | undefined;
  adminLogin: string;
  adminPassword: string | undefined;
  accessTokenTtlSeconds: number;
  refreshTokenTtlDays: number;
  logLevel: string;
  /**
   * Loopback proxy port in sandbox mode: PORT + 1 unless set, so a proxy saved on a profile keeps
   * working after a restart; 0 picks a free one. Printed at start.
   */
  sandboxProxyPort: number;
  /** Where connectors reach the sandbox platforms (this server), e.g. from a worker process. */
  sandboxOrigin: string;
  /** `sandbox`: platform calls go to the built-in emulator under /sandbox; `live`: to the real platforms. */
  platforms: PlatformsMode;
  /**
   * PUBLIC_URL: the address browsers and OAuth providers reach this server at. Required with
   * PLATFORMS=live; in sandbox mode it defaults to http://HOST:PORT. Never a request's Host header.
   */
  publicUrl: string;
  /** ffmpeg/ffprobe binaries; unset means the system's on PATH, else the ones shipped by npm. */
  ffmpegPath: string | undefined;
  ffprobePath: string | undefined;
  maxUploadBytes: number;
  maxImageBytes: number;
  maxImagePixels: number;
  maxVariants: number;
  maxVideoSeconds: number;
  /** Longest side of a source video's picture: decoding cost grows with it, and a render slot is held meanwhile. */
  maxVideoSide: number;
  /** x264 preset of the rendered variants; tests use ultrafast. */
  renderPreset: string;
  /** Variants encoded by one ffmpeg process: each output holds an encoder in memory. */
  renderOutputsPerPass: number;
  renderTimeoutSeconds: number;
  mediaUrlTtlSeconds: number;
  /** STATS_INTERVAL: minutes between statistics syncs of published videos. */
  statsIntervalMinutes: number;
  /** Where media objects live: the disk under DATA_DIR, or an S3-compatible store (STORAGE_URL). */
  storage: StorageSettings;
  /** How the job engine runs render and publish jobs (see server/jobs/engine.ts). */
  engine: EngineSettings;
  /** Limits on every platform call, so a silent proxy or platform costs only its own post. */
  platformTimeouts: PlatformTimeouts;
  /** PROXY_ALLOW_PRIVATE=1: live profiles may use proxies on loopback, private and link-local addresses. */
  proxyAllowPrivate: boolean;
  /** TRUST_PROXY: the reverse proxies whose X-Forwarded-For names the client the sign-in limits count. */
  trustProxy: TrustProxy;
  /** How the sandbox ages tokens and caps posts (see server/platforms/sandbox/tokens.ts and caps.ts). */
  sandboxPlatforms: SandboxPlatformSettings;
  /** The installation's TikTok and Instagram apps, for connecting profiles through the platforms' consent pages. */
  platformApps: PlatformApps;
  /**
   * YOUTUBE_APP_IN_TESTING=1: the profiles' Google OAuth clients belong to projects whose consent
   * screen is in "Testing", whose refresh tokens end 7 days after consent (see youtube-oauth.ts);
   * the connection records that end and the bell warns ahead. The sandbox's Google plays the same.
   */
  youtubeAppInTesting: boolean;
  /** The posting caps the engine plans with (see server/jobs/posting-caps.ts). */
  postingCaps: PostingCapSettings;
}

/** TIKTOK_CLIENT_KEY/SECRET and INSTAGRAM_APP_ID/SECRET; null in live mode when unset (connecting then says what to set). */
export interface PlatformApps {
  tiktok: OAuthApp | null;
  instagram: OAuthApp | null;
}

/**
 * The apps' credentials, once per installation. The sandbox's token endpoints accept any pair, so
 * sandbox mode has built-in ones; live mode has none until the variables are set.
 */
export function platformApps(mode: PlatformsMode, env: NodeJS.ProcessEnv = {}): PlatformApps {
  const app = (idName: string, secretName: string, sandbox: OAuthApp): OAuthApp | null => {
    const id = env[idName];
    const secret = env[secretName];
    if (id && secret) return { id, secret };
    if (id || secret) throw new ConfigError(`set both ${idName} and ${secretName}, or neither`);
    return mode === 'sandbox' ? sandbox : null;
  };
  return {
    tiktok: app('TIKTOK_CLIENT_KEY', 'TIKTOK_CLIENT_SECRET', { id: 'sandbox-tiktok', secret: 'sandbox-tiktok-secret' }),
    instagram: app('INSTAGRAM_APP_ID', 'INSTAGRAM_APP_SECRET', { id: 'sandbox-instagram', secret: 'sandbox-instagram-secret' }),
  };
}

export interface PostingCapSettings {
  /** TIKTOK_DAILY_POSTS: posts per creator within a moving 24 hours (TikTok publishes no figure to read). */
  tiktokDailyPosts: number;
  /** YOUTUBE_DAILY_UPLOADS: videos.insert calls per Google Cloud project (a profile's OAuth client) per Pacific day. */
  youtubeDailyUploads: number;
}

export interface SandboxPlatformSettings {
  /** SANDBOX_TOKEN_TTL_SECONDS: every sandbox access token lives this long instead of the platform's own lifetime. */
  tokenTtlSeconds: number | undefined;
  /** SANDBOX_TIKTOK_UNAUDITED=1: TikTok's creator_info offers SELF_ONLY alone, as to an unaudited app. */
  tiktokUnaudited: boolean;
  /** SANDBOX_*_DAILY_* and SANDBOX_TIKTOK_INITS_PER_MINUTE; absent ones keep the platforms' defaults. */
  limits: Partial<SandboxLimits>;
}

/**
 * Fastify's `trustProxy` in the two forms TRUST_PROXY takes: how many proxies stand in front (the
 * client is that many addresses from the right of X-Forwarded-For), or the proxies' addresses and
 * CIDR ranges. False trusts no peer: the client is the connection's address.
 */
export type TrustProxy = false | number | string[];

/**
 * TRUST_PROXY as Fastify's `trustProxy` option. Fastify 5.12 ignores a plain hop count (its
 * docs/Reference/Server.md, `trustProxy`: "Hop-count-only trust is disabled because it cannot
 * validate the immediate peer"), so hops are a function: the nearest `hops` addresses are proxies,
 * whoever they are. That is only sound when the server cannot be reached but through them, which
 * docs/configuration.md says; the address form is the one that validates the peer.
 */
export function fastifyTrustProxy(trust: TrustProxy): false | string[] | ((address: string, hop: number) => boolean) {
  return typeof trust === 'number' ? (_address, hop) => hop < trust : trust;
}

export interface EngineSettings {
  /** JOB_POLL_SECONDS: how often an idle worker asks for due render and publish jobs. */
  pollSeconds: number;
  /** ffmpeg is CPU-bound and already uses every core: few renders at once. */
  renderConcurrency: number;
  /** Uploads wait on the network: many at once, but bounded. */
  publishConcurrency: number;
  heartbeatSeconds: number;
  /** A process silent this long is dead: its jobs are put back and its leases and scratch files removed. */
  deadAfterSeconds: number;
  /** STATS_SYNC_CONCURRENCY: profiles (per platform) one worker syncs at once; each waits on its own proxy. */
  statsConcurrency: number;
  /** How often a post's figures are read, by its age, and what the reads may spend (server/jobs/sync-stats.ts). */
  statsSync: StatsSyncSettings;
}

export interface StatsSyncSettings {
  /** STATS_FRESH_HOURS / STATS_FRESH_MINUTES: posts up to this old are read this often (48 h, every 15 min). */
  freshHours: number;
  freshEveryMinutes: number;
  /** STATS_RECENT_DAYS / STATS_RECENT_MINUTES: then up to this old, this often (30 days, every 6 h). */
  recentDays: number;
  recentEveryMinutes: number;
  /** STATS_OLD_MINUTES: older posts (once a day). */
  oldEveryMinutes: number;
  /** STATS_YOUTUBE_DAILY_UNITS: a Google project's units a Pacific day (YouTube Data API default 10,000). */
  youtubeDailyUnits: number;
  /** STATS_YOUTUBE_PUBLISH_RESERVE: units of those reads leave to publishing and edits. */
  youtubePublishReserve: number;
  /** STATS_TIKTOK_QUERIES_PER_MINUTE: video/query calls a token may make a minute (TikTok's default 600). */
  tiktokQueriesPerMinute: number;
  /** STATS_INSTAGRAM_CALLS_PER_HOUR: Graph calls an account's reads may make an hour (batch operations count one each). */
  instagramCallsPerHour: number;
}

export interface PlatformTimeouts {
  connectMs: number;
  /** Until the answer's headers arrive, once the request is sent. */
  headersMs: number;
  /** The longest pause between two pieces of an answer. */
  idleMs: number;
  /** A whole request, sending and receiving included. */
  totalMs: number;
}

export type StorageSettings = { kind: 'disk' } | ({ kind: 's3' } & S3Settings);

const roles: Role[] = ['all', 'api', 'worker'];
const platformsModes: PlatformsMode[] = ['sandbox', 'live'];

/** A configuration mistake: printed as one plain sentence at start-up, without a stack trace. */
export class ConfigError extends Error {}

function roleFromArgs(argv: string[]): Role | undefined {
  const flag = argv.find((arg) => arg.startsWith('--role='));
  return flag ? (flag.slice('--role='.length) as Role) : undefined;
}

function positiveNumber(name: string, raw: string | undefined, fallback: number, minimum = 0): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || value < minimum) {
    throw new ConfigError(`${name} must be a number of at least ${minimum || 'more than 0'}, got "${raw}"`);
  }
  return value;
}

function positiveInt(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) {
    throw new ConfigError(`${name} must be a positive whole number, got "${raw}"`);
  }
  return value;
}

const x264Presets = ['ultrafast', 'superfast', 'veryfast', 'faster', 'fast', 'medium', 'slow', 'slower', 'veryslow'];

function renderPreset(raw: string | undefined): string {
  const preset = raw || 'veryfast';
  if (!x264Presets.includes(preset)) throw new ConfigError(`RENDER_PRESET must be one of ${x264Presets.join(', ')}, got "${raw}"`);
  return preset;
}

function publicUrl(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  const url = new URL(raw);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`PUBLIC_URL must be an http(s) URL, got "${raw}"`);
  return url.origin + url.pathname.replace(/\/+$/, '');
}

/** Live mode sends Google a redirect URI, which only the operator can know; the sandbox runs on this machine. */
function sandboxPublicUrl(platforms: PlatformsMode, loopbackHost: string, port: number): string {
  if (platforms === 'live')
    throw new ConfigError(
      'PUBLIC_URL is required with PLATFORMS=live: Google redirects browsers to {PUBLIC_URL}/api/oauth/youtube/callback',
    );
  return `http://${loopbackHost.includes(':') ? `[${loopbackHost}]` : loopbackHost}:${port}`;
}

/** A cron line must divide the hour or the day evenly, or the syncs would drift at each boundary. */
function statsInterval(raw: string | undefined): number {
  const minutes = positiveInt('STATS_INTERVAL', raw, 15);
  const fitsHour = minutes < 60 && 60 % minutes === 0;
  const fitsDay = minutes % 60 === 0 && 24 % (minutes / 60) === 0;
  if (!fitsHour && !fitsDay) {
    throw new ConfigError(
      `STATS_INTERVAL must divide an hour (1, 2, 3, 5, 10, 15, 20, 30) or a day in whole hours (60, 120, ... 1440), got "${raw}"`,
    );
  }
  return minutes;
}

/** The cron line (Europe/Kiev) of a statistics sync every `minutes`. */
export function statsCron(minutes: number): string {
  if (minutes < 60) return `*/${minutes} * * * *`;
  return minutes === 1440 ? '0 0 * * *' : `0 */${minutes / 60} * * *`;
}

/** `STORAGE_URL=s3://bucket/prefix` with the S3_* settings; unset means the disk under DATA_DIR. */
function storageSettings(env: NodeJS.ProcessEnv): StorageSettings {
  const raw = env.STORAGE_URL;
  if (!raw) return { kind: 'disk' };
  const match = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(raw);
  if (!match) throw new ConfigError(`STORAGE_URL must look like s3://bucket or s3://bucket/prefix, got "${raw}"`);
  const prefix = (match[2] ?? '').replace(/^\/+|\/+$/g, '');
  let endpoint: string | undefined;
  if (env.S3_ENDPOINT) {
    endpoint = env.S3_ENDPOINT.replace(/\/+$/, '');
    if (!/^https?:\/\//.test(endpoint)) throw new ConfigError(`S3_ENDPOINT must be an http(s) URL, got "${env.S3_ENDPOINT}"`);
  }
  return {
    kind: 's3',
    bucket: match[1]!,
    prefix: prefix ? `${prefix}/` : '',
    endpoint,
    region: env.S3_REGION || env.AWS_REGION || 'us-east-1',
    forcePathStyle: env.S3_FORCE_PATH_STYLE === '1' || env.S3_FORCE_PATH_STYLE === 'true',
  };
}

// The names proxy-addr (Fastify's trustProxy) knows besides addresses and ranges.
const proxyRangeNames = ['loopback', 'linklocal', 'uniquelocal'];

function isProxyAddress(entry: string): boolean {
  if (proxyRangeNames.includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = net.isIP(address);
  if (version === 0 || rest.length > 0) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128));
}

/** `TRUST_PROXY=1` (hops) or `TRUST_PROXY=10.0.0.0/8,::1` (the proxies); unset or 0 trusts none. */
function trustProxy(raw: string | undefined): TrustProxy {
  const value = raw?.trim() ?? '';
  if (value === '') return false;
  if (/^\d+$/.test(value)) return Number(value) || false;
  const entries = value.split(',').map((entry) => entry.trim());
  if (!entries.every(isProxyAddress)) {
    throw new ConfigError(
      `TRUST_PROXY must be the number of reverse proxies in front of the server (e.g. 1) or their addresses and CIDR ranges separated by commas (e.g. 10.0.0.0/8,::1), got "${raw}"`,
    );
  }
  return entries;
}

/** Every environment variable the server reads, parsed once. docs/configuration.md lists the same table. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, argv: string[] = process.argv): Config {
  const role = roleFromArgs(argv) ?? (env.ROLE as Role | undefined) ?? 'all';
  if (!roles.includes(role)) throw new ConfigError(`--role must be one of ${roles.join(', ')}, got "${role}"`);
  const databaseUrl = env.DATABASE_URL || undefined;
  if (role !== 'all' && !databaseUrl) {
    throw new ConfigError(
      `--role=${role} needs DATABASE_URL: the embedded database (PGlite) belongs to one process, so split roles must share a real Postgres`,
    );
  }
  const platforms = (env.PLATFORMS || 'sandbox') as PlatformsMode;
  if (!platformsModes.includes(platforms)) {
    throw new ConfigError(`PLATFORMS must be one of ${platformsModes.join(', ')}, got "${platforms}"`);
  }
  const host = env.HOST || '127.0.0.1';
  const port = positiveInt('PORT', env.PORT, 3000);
  const sandboxProxyPort = env.SANDBOX_PROXY_PORT ? Number(env.SANDBOX_PROXY_PORT) : port < 65535 ? port + 1 : 0;
  if (!Number.isInteger(sandboxProxyPort) || sandboxProxyPort < 0 || sandboxProxyPort > 65535) {
    throw new ConfigError(`SANDBOX_PROXY_PORT must be a port number or 0, got "${env.SANDBOX_PROXY_PORT}"`);
  }
  const loopbackHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return {
    host,
    port,
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl,
    role,
    secretKey: env.SECRET_KEY || undefined,
    adminLogin: env.ADMIN_LOGIN || 'admin',
    adminPassword: env.ADMIN_PASSWORD || undefined,
    accessTokenTtlSeconds: Math.min(positiveInt('ACCESS_TOKEN_TTL', env.ACCESS_TOKEN_TTL, 15 * 60), 15 * 60),
    refreshTokenTtlDays: positiveInt('REFRESH_TOKEN_TTL_DAYS', env.REFRESH_TOKEN_TTL_DAYS, 30),
    logLevel: env.LOG_LEVEL || 'info',
    sandboxProxyPort,
    sandboxOrigin: (env.SANDBOX_ORIGIN || `http://${loopbackHost.includes(':') ? `[${loopbackHost}]` : loopbackHost}:${port}`).replace(
      /\/$/,
      '',
    ),
    platforms,
    ffmpegPath: env.FFMPEG_PATH || undefined,
    ffprobePath: env.FFPROBE_PATH || undefined,
    maxUploadBytes: positiveInt('MAX_UPLOAD_BYTES', env.MAX_UPLOAD_BYTES, 2 * 1024 ** 3),
    maxImageBytes: positiveInt('MAX_IMAGE_BYTES', env.MAX_IMAGE_BYTES, 30 * 1024 ** 2),
    maxImagePixels: positiveInt('MAX_IMAGE_PIXELS', env.MAX_IMAGE_PIXELS, 40_000_000),
    maxVariants: positiveInt('MAX_VARIANTS', env.MAX_VARIANTS, 50),
    maxVideoSeconds: positiveInt('MAX_VIDEO_SECONDS', env.MAX_VIDEO_SECONDS, 15 * 60),
    maxVideoSide: positiveInt('MAX_VIDEO_SIDE', env.MAX_VIDEO_SIDE, 4096),
    renderPreset: renderPreset(env.RENDER_PRESET),
    renderOutputsPerPass: positiveInt('RENDER_OUTPUTS_PER_PASS', env.RENDER_OUTPUTS_PER_PASS, 6),
    renderTimeoutSeconds: positiveInt('RENDER_TIMEOUT_SECONDS', env.RENDER_TIMEOUT_SECONDS, 60 * 60),
    mediaUrlTtlSeconds: positiveInt('MEDIA_URL_TTL_SECONDS', env.MEDIA_URL_TTL_SECONDS, 6 * 60 * 60),
    publicUrl: publicUrl(env.PUBLIC_URL) ?? sandboxPublicUrl(platforms, loopbackHost, port),
    statsIntervalMinutes: statsInterval(env.STATS_INTERVAL),
    proxyAllowPrivate: env.PROXY_ALLOW_PRIVATE === '1',
    trustProxy: trustProxy(env.TRUST_PROXY),
    storage: storageSettings(env),
    engine: engineSettings(env),
    platformTimeouts: platformTimeouts(env),
    sandboxPlatforms: sandboxPlatformSettings(env),
    platformApps: platformApps(platforms, env),
    youtubeAppInTesting: env.YOUTUBE_APP_IN_TESTING === '1',
    postingCaps: postingCapSettings(env),
  };
}

export function sandboxPlatformSettings(env: NodeJS.ProcessEnv = {}): SandboxPlatformSettings {
  const limits: Partial<SandboxLimits> = {};
  const limit = (key: keyof SandboxLimits, name: string) => {
    if (env[name]) limits[key] = positiveInt(name, env[name], 0);
  };
  limit('tiktokDailyPosts', 'SANDBOX_TIKTOK_DAILY_POSTS');
  limit('tiktokInitsPerMinute', 'SANDBOX_TIKTOK_INITS_PER_MINUTE');
  limit('instagramDailyPosts', 'SANDBOX_INSTAGRAM_DAILY_POSTS');
  limit('youtubeDailyUploads', 'SANDBOX_YOUTUBE_DAILY_UPLOADS');
  limit('youtubeDailyUnits', 'SANDBOX_YOUTUBE_DAILY_UNITS');
  return {
    tokenTtlSeconds: env.SANDBOX_TOKEN_TTL_SECONDS ? positiveInt('SANDBOX_TOKEN_TTL_SECONDS', env.SANDBOX_TOKEN_TTL_SECONDS, 0) : undefined,
    tiktokUnaudited: env.SANDBOX_TIKTOK_UNAUDITED === '1',
    limits,
  };
}

export function postingCapSettings(env: NodeJS.ProcessEnv = {}): PostingCapSettings {
  return {
    // TikTok, "Content Posting API – Direct Post": spam_risk_too_many_posts past the creator's daily cap, about 15.
    tiktokDailyPosts: positiveInt('TIKTOK_DAILY_POSTS', env.TIKTOK_DAILY_POSTS, 15),
    // YouTube Data API, "Quota Calculator": videos.insert has its own bucket of 100 a day per project.
    youtubeDailyUploads: positiveInt('YOUTUBE_DAILY_UPLOADS', env.YOUTUBE_DAILY_UPLOADS, 100),
  };
}

export function engineSettings(env: NodeJS.ProcessEnv = {}): EngineSettings {
  const heartbeatSeconds = positiveNumber('WORKER_HEARTBEAT_SECONDS', env.WORKER_HEARTBEAT_SECONDS, 5);
  const deadAfterSeconds = positiveNumber('WORKER_DEAD_AFTER_SECONDS', env.WORKER_DEAD_AFTER_SECONDS, 20);
  if (deadAfterSeconds < 2 * heartbeatSeconds) {
    throw new ConfigError(
      'WORKER_DEAD_AFTER_SECONDS must be at least twice WORKER_HEARTBEAT_SECONDS, or live workers would be taken for dead',
    );
  }
  return {
    // pg-boss 10 refuses to poll more often than every 0.5 s.
    pollSeconds: positiveNumber('JOB_POLL_SECONDS', env.JOB_POLL_SECONDS, 0.5, 0.5),
    renderConcurrency: positiveInt('RENDER_CONCURRENCY', env.RENDER_CONCURRENCY, Math.max(1, Math.floor(os.availableParallelism() / 4))),
    publishConcurrency: positiveInt('PUBLISH_CONCURRENCY', env.PUBLISH_CONCURRENCY, 32),
    heartbeatSeconds,
    deadAfterSeconds,
    statsConcurrency: positiveInt('STATS_SYNC_CONCURRENCY', env.STATS_SYNC_CONCURRENCY, 16),
    statsSync: statsSyncSettings(env),
  };
}

export function statsSyncSettings(env: NodeJS.ProcessEnv = {}): StatsSyncSettings {
  const settings: StatsSyncSettings = {
    freshHours: positiveNumber('STATS_FRESH_HOURS', env.STATS_FRESH_HOURS, 48),
    freshEveryMinutes: positiveNumber('STATS_FRESH_MINUTES', env.STATS_FRESH_MINUTES, 15),
    recentDays: positiveNumber('STATS_RECENT_DAYS', env.STATS_RECENT_DAYS, 30),
    recentEveryMinutes: positiveNumber('STATS_RECENT_MINUTES', env.STATS_RECENT_MINUTES, 6 * 60),
    oldEveryMinutes: positiveNumber('STATS_OLD_MINUTES', env.STATS_OLD_MINUTES, 24 * 60),
    // YouTube Data API, "Quota Calculator": 10,000 units a day per project.
    youtubeDailyUnits: positiveInt('STATS_YOUTUBE_DAILY_UNITS', env.STATS_YOUTUBE_DAILY_UNITS, 10_000),
    youtubePublishReserve: positiveInt('STATS_YOUTUBE_PUBLISH_RESERVE', env.STATS_YOUTUBE_PUBLISH_RESERVE, 5_000),
    // TikTok, "Rate Limits" (developers.tiktok.com/doc/tiktok-api-v2-rate-limit): /v2/video/query/ 600 a minute.
    tiktokQueriesPerMinute: positiveInt('STATS_TIKTOK_QUERIES_PER_MINUTE', env.STATS_TIKTOK_QUERIES_PER_MINUTE, 600),
    // Graph API "Rate Limiting": 200 calls an hour per user; reads leave a quarter to publishing.
    instagramCallsPerHour: positiveInt('STATS_INSTAGRAM_CALLS_PER_HOUR', env.STATS_INSTAGRAM_CALLS_PER_HOUR, 150),
  };
  if (settings.freshHours >= settings.recentDays * 24) {
    throw new ConfigError('STATS_FRESH_HOURS must be shorter than STATS_RECENT_DAYS, or the recent tier would be empty');
  }
  if (settings.youtubePublishReserve >= settings.youtubeDailyUnits) {
    throw new ConfigError('STATS_YOUTUBE_PUBLISH_RESERVE must be below STATS_YOUTUBE_DAILY_UNITS, or statistics could never be read');
  }
  return settings;
}

export function platformTimeouts(env: NodeJS.ProcessEnv = {}): PlatformTimeouts {
  const ms = (name: string, fallbackSeconds: number) => Math.round(positiveNumber(name, env[name], fallbackSeconds) * 1000);
  return {
    connectMs: ms('PLATFORM_CONNECT_TIMEOUT_SECONDS', 15),
    headersMs: ms('PLATFORM_HEADERS_TIMEOUT_SECONDS', 120),
    idleMs: ms('PLATFORM_IDLE_TIMEOUT_SECONDS', 60),
    totalMs: ms('PLATFORM_REQUEST_TIMEOUT_SECONDS', 30 * 60),
  };
}
