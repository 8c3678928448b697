import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import envSchema from 'env-schema';
import { validate } from 'superstruct';
import type { EngineSettings } from './jobs/engine-settings';
import type { StorageSettings } from './media/services';
import type { PlatformTimeouts } from './net/http';
import { builtInApps, installationAppVariables, type OAuthApp, type PlatformApps } from './platforms/oauth-links';
import type { SandboxLimits } from './sandbox/caps';
import type { PlatformsMode, PostingCapSettings } from './platforms/types';
import type { StatsSyncSettings } from './services/statistics/quota-ledger';
import type { MediaSettings } from './media/services';
import type { PostingSlots } from '../src/lib/contract';
import { postingSlotsSchema } from '../src/lib/schemas';
import { consentPlatformIds } from '../src/lib/platforms';

export type Role = 'all' | 'api' | 'worker';

/** The limits and render settings (MAX_*, RENDER_*, MEDIA_URL_TTL_SECONDS) are the media's own settings. */
export interface Config extends MediaSettings {
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
  /** STATS_INTERVAL: minutes between statistics syncs of published videos. */
  statsIntervalMinutes: number;
  /** Where media objects live: the disk under DATA_DIR, or an S3-compatible store (STORAGE_URL). */
  storage: StorageSettings;
  /** How the job engine runs render and publish jobs (see server/engine/runner.ts). */
  engine: EngineSettings;
  /** Limits on every platform call, so a silent proxy or platform costs only its own post. */
  platformTimeouts: PlatformTimeouts;
  /** PROXY_ALLOW_PRIVATE=1: live profiles may use proxies on loopback, private and link-local addresses. */
  proxyAllowPrivate: boolean;
  /** TRUST_PROXY: the reverse proxies whose X-Forwarded-For names the client the sign-in limits count. */
  trustProxy: TrustProxy;
  /** How the sandbox ages tokens and caps posts (see server/sandbox/tokens.ts and caps.ts). */
  sandboxPlatforms: SandboxPlatformSettings;
  /** The installation's TikTok and Instagram apps, for connecting profiles through the platforms' consent pages. */
  platformApps: PlatformApps;
  /**
   * YOUTUBE_APP_IN_TESTING=1: the profiles' Google OAuth clients belong to projects whose consent
   * screen is in "Testing", whose refresh tokens end 7 days after consent (see platforms/youtube/oauth.ts);
   * the connection records that end and the bell warns ahead. The sandbox's Google plays the same.
   */
  youtubeAppInTesting: boolean;
  /** The posting caps the engine plans with (see server/services/planning/posting-caps.ts). */
  postingCaps: PostingCapSettings;
  /** POSTING_*: the slots of profiles whose group has none and who have none (see server/services/planning/posting-slots.ts). */
  postingSlots: PostingSlots;
  /** TELEGRAM_BOT_TOKEN: the installation's bot for alerts; unset in live mode means no Telegram (see docs/alerts.md). */
  telegramBotToken: string | undefined;
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
 * docs/security.md says; the address form is the one that validates the peer.
 */
export function fastifyTrustProxy(trust: TrustProxy): false | string[] | ((address: string, hop: number) => boolean) {
  return typeof trust === 'number' ? (_address, hop) => hop < trust : trust;
}

/** A configuration mistake: printed as one plain sentence at start-up, without a stack trace. */
export class ConfigError extends Error {}

const roles = ['all', 'api', 'worker'] as const;
const platformsModes = ['sandbox', 'live'] as const;
const x264Presets = ['ultrafast', 'superfast', 'veryfast', 'faster', 'fast', 'medium', 'slow', 'slower', 'veryslow'] as const;

const oneOf = <T extends string>(values: readonly T[], fallback: T) =>
  Type.Union(
    values.map((value) => Type.Literal(value)),
    { default: fallback },
  );
const wholeNumber = (fallback: number) => Type.Integer({ exclusiveMinimum: 0, default: fallback });
const optionalWholeNumber = () => Type.Optional(Type.Integer({ exclusiveMinimum: 0 }));
const positiveNumber = (fallback: number, minimum?: number) =>
  Type.Number(minimum === undefined ? { exclusiveMinimum: 0, default: fallback } : { minimum, default: fallback });
const text = (fallback: string) => Type.String({ default: fallback });
const optionalText = () => Type.Optional(Type.String());

/**
 * Every environment variable the server reads, with its default; docs/configuration.md lists the same table.
 * An empty variable counts as unset. Checks that span variables, and the values derived from them
 * (URLs, ports), follow in loadConfig.
 */
const environment = Type.Object({
  ROLE: oneOf(roles, 'all'),
  DATABASE_URL: optionalText(),
  PLATFORMS: oneOf(platformsModes, 'sandbox'),
  HOST: text('127.0.0.1'),
  PORT: wholeNumber(3000),
  SANDBOX_PROXY_PORT: Type.Optional(Type.Integer({ minimum: 0, maximum: 65535 })),
  SANDBOX_ORIGIN: optionalText(),
  PUBLIC_URL: optionalText(),
  DATA_DIR: text('./data'),
  SECRET_KEY: Type.Optional(Type.String({ minLength: 32 })),
  ADMIN_LOGIN: text('admin'),
  ADMIN_PASSWORD: optionalText(),
  ACCESS_TOKEN_TTL: wholeNumber(15 * 60),
  REFRESH_TOKEN_TTL_DAYS: wholeNumber(30),
  LOG_LEVEL: text('info'),
  FFMPEG_PATH: optionalText(),
  FFPROBE_PATH: optionalText(),
  MAX_UPLOAD_BYTES: wholeNumber(2 * 1024 ** 3),
  MAX_IMAGE_BYTES: wholeNumber(30 * 1024 ** 2),
  MAX_IMAGE_PIXELS: wholeNumber(40_000_000),
  MAX_VARIANTS: wholeNumber(50),
  MAX_VIDEO_SECONDS: wholeNumber(15 * 60),
  MAX_VIDEO_SIDE: wholeNumber(4096),
  RENDER_PRESET: oneOf(x264Presets, 'veryfast'),
  RENDER_OUTPUTS_PER_PASS: wholeNumber(6),
  RENDER_TIMEOUT_SECONDS: wholeNumber(60 * 60),
  MEDIA_URL_TTL_SECONDS: wholeNumber(6 * 60 * 60),
  STATS_INTERVAL: wholeNumber(15),
  PROXY_ALLOW_PRIVATE: optionalText(),
  TRUST_PROXY: optionalText(),
  STORAGE_URL: Type.Optional(Type.String({ pattern: '^s3://([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:/(.*))?$' })),
  S3_ENDPOINT: optionalText(),
  S3_REGION: optionalText(),
  AWS_REGION: optionalText(),
  S3_FORCE_PATH_STYLE: optionalText(),
  // pg-boss 10 refuses to poll more often than every 0.5 s.
  JOB_POLL_SECONDS: positiveNumber(0.5, 0.5),
  // ffmpeg is CPU-bound and already uses every core: few renders at once.
  RENDER_CONCURRENCY: wholeNumber(Math.max(1, Math.floor(os.availableParallelism() / 4))),
  PUBLISH_CONCURRENCY: wholeNumber(32),
  WORKER_HEARTBEAT_SECONDS: positiveNumber(5),
  WORKER_DEAD_AFTER_SECONDS: positiveNumber(20),
  STATS_SYNC_CONCURRENCY: wholeNumber(16),
  STATS_FRESH_HOURS: positiveNumber(48),
  STATS_FRESH_MINUTES: positiveNumber(15),
  STATS_RECENT_DAYS: positiveNumber(30),
  STATS_RECENT_MINUTES: positiveNumber(6 * 60),
  STATS_OLD_MINUTES: positiveNumber(24 * 60),
  // YouTube Data API, "Quota Calculator": 10,000 units a day per project.
  STATS_YOUTUBE_DAILY_UNITS: wholeNumber(10_000),
  STATS_YOUTUBE_PUBLISH_RESERVE: wholeNumber(5_000),
  // TikTok, "Rate Limits" (developers.tiktok.com/doc/tiktok-api-v2-rate-limit): /v2/video/query/ 600 a minute.
  STATS_TIKTOK_QUERIES_PER_MINUTE: wholeNumber(600),
  // Graph API "Rate Limiting": 200 calls an hour per user; reads leave a quarter to publishing.
  STATS_INSTAGRAM_CALLS_PER_HOUR: wholeNumber(150),
  // Issue 32.2: a profile's last 5 posts each under 10 % of the median views of the 30 before, counted once live 48 h.
  REACH_RECENT_POSTS: wholeNumber(5),
  REACH_HISTORY_POSTS: wholeNumber(30),
  REACH_RATIO: Type.Number({ exclusiveMinimum: 0, exclusiveMaximum: 1, default: 0.1 }),
  REACH_SETTLED_HOURS: positiveNumber(48),
  PLATFORM_CONNECT_TIMEOUT_SECONDS: positiveNumber(15),
  PLATFORM_HEADERS_TIMEOUT_SECONDS: positiveNumber(120),
  PLATFORM_IDLE_TIMEOUT_SECONDS: positiveNumber(60),
  PLATFORM_REQUEST_TIMEOUT_SECONDS: positiveNumber(30 * 60),
  SANDBOX_TOKEN_TTL_SECONDS: optionalWholeNumber(),
  SANDBOX_TIKTOK_UNAUDITED: optionalText(),
  SANDBOX_TIKTOK_DAILY_POSTS: optionalWholeNumber(),
  SANDBOX_TIKTOK_INITS_PER_MINUTE: optionalWholeNumber(),
  SANDBOX_INSTAGRAM_DAILY_POSTS: optionalWholeNumber(),
  SANDBOX_FACEBOOK_DAILY_REELS: optionalWholeNumber(),
  SANDBOX_YOUTUBE_DAILY_UPLOADS: optionalWholeNumber(),
  SANDBOX_YOUTUBE_DAILY_UNITS: optionalWholeNumber(),
  TIKTOK_CLIENT_KEY: optionalText(),
  TIKTOK_CLIENT_SECRET: optionalText(),
  INSTAGRAM_APP_ID: optionalText(),
  INSTAGRAM_APP_SECRET: optionalText(),
  FACEBOOK_APP_ID: optionalText(),
  FACEBOOK_APP_SECRET: optionalText(),
  YOUTUBE_APP_IN_TESTING: optionalText(),
  // TikTok, "Content Posting API – Direct Post": spam_risk_too_many_posts past the creator's daily cap, about 15.
  TIKTOK_DAILY_POSTS: wholeNumber(15),
  // YouTube Data API, "Quota Calculator": videos.insert has its own bucket of 100 a day per project.
  YOUTUBE_DAILY_UPLOADS: wholeNumber(100),
  // The installation's posting slots (Kyiv time, ISO weekdays), for profiles and groups without their own.
  POSTING_FROM: text('09:00'),
  POSTING_TO: text('22:00'),
  POSTING_GAP_MINUTES: Type.Integer({ minimum: 0, default: 90 }),
  POSTING_DAYS: text('1,2,3,4,5,6,7'),
  TELEGRAM_BOT_TOKEN: Type.Optional(Type.String({ pattern: '^\\d{1,20}:[A-Za-z0-9_-]{20,100}$' })),
  // A minute: 200 failures in one are one message.
  ALERT_GROUP_SECONDS: wholeNumber(60),
});

type Environment = Static<typeof environment>;
type VariableName = keyof Environment;

/** Where the sentence a wrong value gets is not the one its type gives. */
const ownSentences: Partial<Record<VariableName, (raw: string) => string>> = {
  ROLE: (raw) => `--role must be one of ${roles.join(', ')}, got "${raw}"`,
  SANDBOX_PROXY_PORT: (raw) => `SANDBOX_PROXY_PORT must be a port number or 0, got "${raw}"`,
  SECRET_KEY: () => 'SECRET_KEY must be at least 32 characters long',
  STORAGE_URL: (raw) => `STORAGE_URL must look like s3://bucket or s3://bucket/prefix, got "${raw}"`,
  POSTING_GAP_MINUTES: (raw) => `POSTING_GAP_MINUTES must be a whole number of minutes from 0 to 1440, got "${raw}"`,
  REACH_RATIO: (raw) => `REACH_RATIO must be a share between 0 and 1, such as 0.1, got "${raw}"`,
  // The token itself is a secret: the sentence does not repeat it.
  TELEGRAM_BOT_TOKEN: () => 'TELEGRAM_BOT_TOKEN must be the token @BotFather gave, like 123456789:AAH…',
};

/** The one sentence a variable's wrong value stops the start with, from what its schema asks. */
function refusal(name: VariableName, raw: string): string {
  const own = ownSentences[name];
  if (own) return own(raw);
  const schema: TSchema = environment.properties[name];
  if (schema.anyOf) return `${name} must be one of ${schema.anyOf.map((choice: TSchema) => choice.const).join(', ')}, got "${raw}"`;
  if (schema.type === 'integer') return `${name} must be a positive whole number, got "${raw}"`;
  return `${name} must be a number of at least ${schema.minimum ?? 'more than 0'}, got "${raw}"`;
}

function parseEnvironment(env: NodeJS.ProcessEnv): Environment {
  const given = Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => Boolean(entry[1])));
  try {
    return envSchema<Environment>({ schema: environment, data: given, env: false });
  } catch (error) {
    // Ajv lists every wrong variable; the start stops on the first, in one sentence.
    const [first] = (error as { errors?: { instancePath: string }[] }).errors ?? [];
    if (!first) throw error;
    const name = first.instancePath.slice(1) as VariableName;
    throw new ConfigError(refusal(name, given[name] ?? ''));
  }
}

function roleFromArgs(argv: string[]): string | undefined {
  const flag = argv.find((arg) => arg.startsWith('--role='));
  return flag ? flag.slice('--role='.length) : undefined;
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
function statsInterval(minutes: number): number {
  const fitsHour = minutes < 60 && 60 % minutes === 0;
  const fitsDay = minutes % 60 === 0 && 24 % (minutes / 60) === 0;
  if (!fitsHour && !fitsDay) {
    throw new ConfigError(
      `STATS_INTERVAL must divide an hour (1, 2, 3, 5, 10, 15, 20, 30) or a day in whole hours (60, 120, ... 1440), got "${minutes}"`,
    );
  }
  return minutes;
}

/** `STORAGE_URL=s3://bucket/prefix` with the S3_* settings; unset means the disk under DATA_DIR. */
function storageSettings(vars: Environment): StorageSettings {
  const match = vars.STORAGE_URL && /^s3:\/\/([^/]+)(?:\/(.*))?$/.exec(vars.STORAGE_URL);
  if (!match) return { kind: 'disk' };
  const prefix = (match[2] ?? '').replace(/^\/+|\/+$/g, '');
  let endpoint: string | undefined;
  if (vars.S3_ENDPOINT) {
    endpoint = vars.S3_ENDPOINT.replace(/\/+$/, '');
    if (!/^https?:\/\//.test(endpoint)) throw new ConfigError(`S3_ENDPOINT must be an http(s) URL, got "${vars.S3_ENDPOINT}"`);
  }
  return {
    kind: 's3',
    bucket: match[1]!,
    prefix: prefix ? `${prefix}/` : '',
    endpoint,
    region: vars.S3_REGION || vars.AWS_REGION || 'us-east-1',
    forcePathStyle: vars.S3_FORCE_PATH_STYLE === '1' || vars.S3_FORCE_PATH_STYLE === 'true',
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

/** The installation's apps: both variables of a pair, or neither (the mode's built-in app then). */
function platformApps(mode: PlatformsMode, vars: Environment): PlatformApps {
  const builtIn = builtInApps(mode);
  const app = (idName: VariableName, secretName: VariableName, fallback: OAuthApp | null): OAuthApp | null => {
    const id = vars[idName] as string | undefined;
    const secret = vars[secretName] as string | undefined;
    if (id && secret) return { id, secret };
    if (id || secret) throw new ConfigError(`set both ${idName} and ${secretName}, or neither`);
    return fallback;
  };
  return Object.fromEntries(
    consentPlatformIds.map((platform) => [
      platform,
      app(...(installationAppVariables[platform] as [VariableName, VariableName]), builtIn[platform]),
    ]),
  ) as PlatformApps;
}

function sandboxPlatformSettings(vars: Environment): SandboxPlatformSettings {
  const limits: Partial<SandboxLimits> = {
    tiktokDailyPosts: vars.SANDBOX_TIKTOK_DAILY_POSTS,
    tiktokInitsPerMinute: vars.SANDBOX_TIKTOK_INITS_PER_MINUTE,
    instagramDailyPosts: vars.SANDBOX_INSTAGRAM_DAILY_POSTS,
    facebookDailyReels: vars.SANDBOX_FACEBOOK_DAILY_REELS,
    youtubeDailyUploads: vars.SANDBOX_YOUTUBE_DAILY_UPLOADS,
    youtubeDailyUnits: vars.SANDBOX_YOUTUBE_DAILY_UNITS,
  };
  return {
    tokenTtlSeconds: vars.SANDBOX_TOKEN_TTL_SECONDS,
    tiktokUnaudited: vars.SANDBOX_TIKTOK_UNAUDITED === '1',
    // Absent ones keep the platforms' defaults.
    limits: Object.fromEntries(Object.entries(limits).filter(([, value]) => value !== undefined)),
  };
}

const slotVariables: Record<keyof PostingSlots, VariableName> = {
  from: 'POSTING_FROM',
  to: 'POSTING_TO',
  minGapMinutes: 'POSTING_GAP_MINUTES',
  days: 'POSTING_DAYS',
};
const slotRules: Record<keyof PostingSlots, string> = {
  from: 'a Kyiv time HH:MM on 5-minute steps',
  to: 'a Kyiv time HH:MM on 5-minute steps, after POSTING_FROM',
  minGapMinutes: 'a whole number of minutes from 0 to 1440',
  days: 'ISO weekdays from 1 (Monday) to 7 (Sunday), each once, separated by commas',
};

/** The installation's slots, by the same rules as a profile's form. */
function postingSlotsOf(vars: Environment): PostingSlots {
  const slots = {
    from: vars.POSTING_FROM,
    to: vars.POSTING_TO,
    minGapMinutes: vars.POSTING_GAP_MINUTES,
    days: vars.POSTING_DAYS.split(',').map((day) => (/^\s*\d\s*$/.test(day) ? Number(day) : day)),
  };
  const [failure] = validate(slots, postingSlotsSchema);
  if (failure) {
    const field = failure.path[0] as keyof PostingSlots;
    throw new ConfigError(`${slotVariables[field]} must be ${slotRules[field]}, got "${vars[slotVariables[field]]}"`);
  }
  return slots as PostingSlots;
}

function engineSettingsOf(vars: Environment): EngineSettings {
  if (vars.WORKER_DEAD_AFTER_SECONDS < 2 * vars.WORKER_HEARTBEAT_SECONDS) {
    throw new ConfigError(
      'WORKER_DEAD_AFTER_SECONDS must be at least twice WORKER_HEARTBEAT_SECONDS, or live workers would be taken for dead',
    );
  }
  return {
    pollSeconds: vars.JOB_POLL_SECONDS,
    backgroundPollSeconds: 5,
    renderConcurrency: vars.RENDER_CONCURRENCY,
    publishConcurrency: vars.PUBLISH_CONCURRENCY,
    heartbeatSeconds: vars.WORKER_HEARTBEAT_SECONDS,
    deadAfterSeconds: vars.WORKER_DEAD_AFTER_SECONDS,
    statsConcurrency: vars.STATS_SYNC_CONCURRENCY,
    statsSync: statsSyncSettingsOf(vars),
    reach: {
      recentPosts: vars.REACH_RECENT_POSTS,
      historyPosts: vars.REACH_HISTORY_POSTS,
      ratio: vars.REACH_RATIO,
      settledHours: vars.REACH_SETTLED_HOURS,
    },
    alertGroupSeconds: vars.ALERT_GROUP_SECONDS,
  };
}

function statsSyncSettingsOf(vars: Environment): StatsSyncSettings {
  if (vars.STATS_FRESH_HOURS >= vars.STATS_RECENT_DAYS * 24) {
    throw new ConfigError('STATS_FRESH_HOURS must be shorter than STATS_RECENT_DAYS, or the recent tier would be empty');
  }
  if (vars.STATS_YOUTUBE_PUBLISH_RESERVE >= vars.STATS_YOUTUBE_DAILY_UNITS) {
    throw new ConfigError('STATS_YOUTUBE_PUBLISH_RESERVE must be below STATS_YOUTUBE_DAILY_UNITS, or statistics could never be read');
  }
  return {
    freshHours: vars.STATS_FRESH_HOURS,
    freshEveryMinutes: vars.STATS_FRESH_MINUTES,
    recentDays: vars.STATS_RECENT_DAYS,
    recentEveryMinutes: vars.STATS_RECENT_MINUTES,
    oldEveryMinutes: vars.STATS_OLD_MINUTES,
    youtubeDailyUnits: vars.STATS_YOUTUBE_DAILY_UNITS,
    youtubePublishReserve: vars.STATS_YOUTUBE_PUBLISH_RESERVE,
    tiktokQueriesPerMinute: vars.STATS_TIKTOK_QUERIES_PER_MINUTE,
    instagramCallsPerHour: vars.STATS_INSTAGRAM_CALLS_PER_HOUR,
  };
}

function platformTimeouts(vars: Environment): PlatformTimeouts {
  const ms = (seconds: number) => Math.round(seconds * 1000);
  return {
    connectMs: ms(vars.PLATFORM_CONNECT_TIMEOUT_SECONDS),
    headersMs: ms(vars.PLATFORM_HEADERS_TIMEOUT_SECONDS),
    idleMs: ms(vars.PLATFORM_IDLE_TIMEOUT_SECONDS),
    totalMs: ms(vars.PLATFORM_REQUEST_TIMEOUT_SECONDS),
  };
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/** Every environment variable the server reads, parsed once into one frozen object. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, argv: string[] = process.argv): Config {
  const vars = parseEnvironment({ ...env, ROLE: roleFromArgs(argv) ?? env.ROLE });
  const role = vars.ROLE;
  const databaseUrl = vars.DATABASE_URL;
  if (role !== 'all' && !databaseUrl) {
    throw new ConfigError(
      `--role=${role} needs DATABASE_URL: the embedded database (PGlite) belongs to one process, so split roles must share a real Postgres`,
    );
  }
  const platforms = vars.PLATFORMS;
  const host = vars.HOST;
  const port = vars.PORT;
  const loopbackHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return deepFreeze({
    host,
    port,
    dataDir: path.resolve(vars.DATA_DIR),
    databaseUrl,
    role,
    secretKey: vars.SECRET_KEY,
    adminLogin: vars.ADMIN_LOGIN,
    adminPassword: vars.ADMIN_PASSWORD,
    accessTokenTtlSeconds: Math.min(vars.ACCESS_TOKEN_TTL, 15 * 60),
    refreshTokenTtlDays: vars.REFRESH_TOKEN_TTL_DAYS,
    logLevel: vars.LOG_LEVEL,
    sandboxProxyPort: vars.SANDBOX_PROXY_PORT ?? (port < 65535 ? port + 1 : 0),
    sandboxOrigin: (vars.SANDBOX_ORIGIN || `http://${loopbackHost.includes(':') ? `[${loopbackHost}]` : loopbackHost}:${port}`).replace(
      /\/$/,
      '',
    ),
    platforms,
    ffmpegPath: vars.FFMPEG_PATH,
    ffprobePath: vars.FFPROBE_PATH,
    maxUploadBytes: vars.MAX_UPLOAD_BYTES,
    maxImageBytes: vars.MAX_IMAGE_BYTES,
    maxImagePixels: vars.MAX_IMAGE_PIXELS,
    maxVariants: vars.MAX_VARIANTS,
    maxVideoSeconds: vars.MAX_VIDEO_SECONDS,
    maxVideoSide: vars.MAX_VIDEO_SIDE,
    renderPreset: vars.RENDER_PRESET,
    renderOutputsPerPass: vars.RENDER_OUTPUTS_PER_PASS,
    renderTimeoutSeconds: vars.RENDER_TIMEOUT_SECONDS,
    mediaUrlTtlSeconds: vars.MEDIA_URL_TTL_SECONDS,
    publicUrl: publicUrl(vars.PUBLIC_URL) ?? sandboxPublicUrl(platforms, loopbackHost, port),
    statsIntervalMinutes: statsInterval(vars.STATS_INTERVAL),
    proxyAllowPrivate: vars.PROXY_ALLOW_PRIVATE === '1',
    trustProxy: trustProxy(vars.TRUST_PROXY),
    storage: storageSettings(vars),
    engine: engineSettingsOf(vars),
    platformTimeouts: platformTimeouts(vars),
    sandboxPlatforms: sandboxPlatformSettings(vars),
    platformApps: platformApps(platforms, vars),
    youtubeAppInTesting: vars.YOUTUBE_APP_IN_TESTING === '1',
    postingCaps: { tiktokDailyPosts: vars.TIKTOK_DAILY_POSTS, youtubeDailyUploads: vars.YOUTUBE_DAILY_UPLOADS },
    postingSlots: postingSlotsOf(vars),
    telegramBotToken: vars.TELEGRAM_BOT_TOKEN,
  });
}

// Parts of the configuration of an environment, for tests and benchmarks that build one piece.
export const engineSettings = (env: NodeJS.ProcessEnv = {}): EngineSettings => loadConfig(env, []).engine;
export const statsSyncSettings = (env: NodeJS.ProcessEnv = {}): StatsSyncSettings => loadConfig(env, []).engine.statsSync;
export const platformTimeoutSettings = (env: NodeJS.ProcessEnv = {}): PlatformTimeouts => loadConfig(env, []).platformTimeouts;
export const postingCapSettings = (env: NodeJS.ProcessEnv = {}): PostingCapSettings => loadConfig(env, []).postingCaps;
export const postingSlotSettings = (env: NodeJS.ProcessEnv = {}): PostingSlots => loadConfig(env, []).postingSlots;
