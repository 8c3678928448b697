import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { systemClock } from '../clock';
import type { Platform } from '../platforms/types';
import { platformIds } from '../../src/lib/platforms';
import { SandboxCaps, type SandboxLimits } from './caps';
import { shownNames } from './common';
import { SandboxTokens, type PersistedTokens } from './tokens';
import { TelegramSandbox, type PersistedTelegram, type TelegramMethod } from './telegram';
import { redactUrl } from '../net/redact-url';

/**
 * Where a fault fires. `init` starts an upload, `upload` carries its bytes, `status` asks about
 * an upload or its processing, `publish` is Instagram's media_publish, `list` the listings used
 * to find an upload again, `stats` statistics, `profile` channel/profile reads and writes.
 */
export type FaultStep = 'init' | 'upload' | 'status' | 'publish' | 'list' | 'stats' | 'profile' | 'edit';

/**
 * `drop-connection` closes the socket: on an upload after `afterBytes` bytes (default: half the
 * body) were stored, elsewhere before any work. `drop-response` does all the work, then closes
 * the socket instead of answering: the ambiguous failure that tempts a client to upload twice.
 * `unauthorized` answers 401 as for an expired token; the others answer in the platform's own
 * error format.
 */
export type FaultKind = 'status-429' | 'status-500' | 'quota' | 'unauthorized' | 'drop-connection' | 'drop-response';

export interface SandboxFault {
  platform: Platform | 'telegram';
  /** For Telegram, the Bot API method it hits. */
  step: FaultStep | TelegramMethod;
  kind: FaultKind;
  /** How many matching requests it hits; 1 when absent. */
  times?: number;
  /** Sent as Retry-After with status-429; 1 when absent. */
  retryAfterSeconds?: number;
  afterBytes?: number;
}

export interface SandboxVideo {
  platform: Platform;
  id: string;
  account: string;
  title: string;
  description: string;
  tags: string[];
  bytes: number;
  sha256: string;
  createdAt: number;
  url: string;
  /** The post's settings as the platform received them, in its own field names (see GET /sandbox/_posts). */
  options?: Record<string, unknown>;
}

/**
 * One upload's progress; only bytes at the expected offset are accepted. The bytes themselves are
 * kept by the state (see `append`), under `sinkId`, so a session is plain data that persists.
 */
export interface UploadSink {
  sinkId: string;
  expected: number;
  received: number;
}

/** What the emulator keeps of sessions in flight, by platform and session id. */
export type SessionKind = Platform;

export interface SandboxOptions {
  /**
   * Keeps videos, channel descriptions, revocations and the sessions in flight (resumable uploads
   * with their bytes, TikTok publish ids, Instagram containers, Facebook Reels) across restarts in
   * `<dataDir>/sandbox`, as a real platform keeps them while this server restarts.
   */
  dataDir?: string;
  /** The clock statistics, token ages and caps go by; tests move it. */
  now?: () => number;
  /** SANDBOX_TOKEN_TTL_SECONDS: every access token lives this long instead of the platform's own lifetime. */
  tokenTtlSeconds?: number;
  /** SANDBOX_TIKTOK_UNAUDITED=1: the TikTok app is unaudited, so creator_info offers SELF_ONLY alone. */
  tiktokUnaudited?: boolean;
  /** Daily caps and rate limits; each absent one keeps the platform's default (see caps.ts). */
  limits?: Partial<SandboxLimits>;
  /** YOUTUBE_APP_IN_TESTING=1: Google's refresh tokens end 7 days after consent, as for an app in "Testing". */
  youtubeAppInTesting?: boolean;
}

interface Persisted {
  videos: SandboxVideo[];
  channelDescriptions: Record<string, string>;
  revoked: string[];
  sessions?: Record<SessionKind, [string, UploadSink][]>;
  tokens?: PersistedTokens;
  telegram?: PersistedTelegram;
}

const requestLogLimit = 5000;

/**
 * The emulator's memory. With a data directory, everything a real platform would still hold
 * after this server restarts persists there; without one (tests), it lives in memory.
 */
export class SandboxState {
  readonly faults: SandboxFault[] = [];
  /** Every request the emulator answered, oldest first, as `{ method, url }` with url under /sandbox, credentials redacted. */
  readonly requests: { method: string; url: string }[] = [];
  readonly videos: SandboxVideo[] = [];
  private videoIndex = new Map<string, number>();
  readonly channelDescriptions = new Map<string, string>();
  /** Sessions in flight: YouTube resumable uploads, TikTok publishes, Instagram containers, Facebook Reels. */
  readonly sessions = Object.fromEntries(platformIds.map((platform) => [platform, new Map()])) as Record<
    SessionKind,
    Map<string, UploadSink>
  >;
  readonly now: () => number;
  readonly tokens: SandboxTokens;
  readonly caps: SandboxCaps;
  /** The Telegram Bot API's side: chats that wrote to the bot, and what it sent them. */
  readonly telegram: TelegramSandbox;
  readonly tiktokUnaudited: boolean;
  readonly youtubeAppInTesting: boolean;
  /** Calls answered, by platform, then by `METHOD /route` as the sandbox mounts it. */
  readonly calls = Object.fromEntries(platformIds.map((platform) => [platform, {}])) as Record<Platform, Record<string, number>>;
  private readonly revoked = new Set<string>();
  private readonly file: string | undefined;
  private readonly bytesDir: string | undefined;
  /** Upload bytes when there is no data directory. */
  private readonly bytesInMemory = new Map<string, Buffer[]>();

  constructor(options: SandboxOptions = {}) {
    this.now = options.now ?? systemClock.now;
    this.tokens = new SandboxTokens(this.now, options.tokenTtlSeconds, () => this.persist());
    this.caps = new SandboxCaps(options.limits ?? {}, this.now);
    this.telegram = new TelegramSandbox(
      this.now,
      () => this.persist(),
      (method) => this.takeFault('telegram', method),
    );
    this.tiktokUnaudited = options.tiktokUnaudited ?? false;
    this.youtubeAppInTesting = options.youtubeAppInTesting ?? false;
    this.file = options.dataDir ? path.join(options.dataDir, 'sandbox', 'state.json') : undefined;
    this.bytesDir = options.dataDir ? path.join(options.dataDir, 'sandbox', 'uploads') : undefined;
    if (this.file && fs.existsSync(this.file)) {
      const saved = JSON.parse(fs.readFileSync(this.file, 'utf8')) as Persisted;
      this.videos.push(...saved.videos);
      for (const [account, description] of Object.entries(saved.channelDescriptions)) {
        this.channelDescriptions.set(account, description);
      }
      for (const key of saved.revoked) this.revoked.add(key);
      this.tokens.load(saved.tokens);
      this.telegram.load(saved.telegram);
      for (const kind of Object.keys(this.sessions) as SessionKind[]) {
        for (const [id, session] of saved.sessions?.[kind] ?? []) this.sessions[kind].set(id, session);
      }
    }
  }

  /** A new upload of `expected` bytes (0 when not known yet). */
  newSink(expected: number): UploadSink {
    return { sinkId: crypto.randomBytes(12).toString('hex'), expected, received: 0 };
  }

  append(sink: UploadSink, chunk: Buffer) {
    if (this.bytesDir) {
      fs.mkdirSync(this.bytesDir, { recursive: true });
      fs.appendFileSync(path.join(this.bytesDir, sink.sinkId), chunk);
    } else {
      this.bytesInMemory.set(sink.sinkId, [...(this.bytesInMemory.get(sink.sinkId) ?? []), chunk]);
    }
    sink.received += chunk.length;
  }

  /** Forgets every byte after `length`, as when a chunk counts whole or not at all. */
  truncate(sink: UploadSink, length: number) {
    sink.received = Math.min(sink.received, length);
    if (this.bytesDir) {
      const file = path.join(this.bytesDir, sink.sinkId);
      if (fs.existsSync(file)) fs.truncateSync(file, sink.received);
    } else {
      const kept = Buffer.concat(this.bytesInMemory.get(sink.sinkId) ?? []).subarray(0, sink.received);
      this.bytesInMemory.set(sink.sinkId, [kept]);
    }
  }

  /** The SHA-256 of the bytes received; once an upload is whole, its bytes are let go. */
  digest(sink: UploadSink): string {
    const hash = crypto.createHash('sha256');
    if (this.bytesDir) {
      const file = path.join(this.bytesDir, sink.sinkId);
      if (fs.existsSync(file)) hash.update(fs.readFileSync(file));
      fs.rmSync(file, { force: true });
    } else {
      for (const chunk of this.bytesInMemory.get(sink.sinkId) ?? []) hash.update(chunk);
      this.bytesInMemory.delete(sink.sinkId);
    }
    return hash.digest('hex');
  }

  /** Writes the sessions after a change; a no-op without a data directory. */
  saveSessions() {
    this.persist();
  }

  /** Consumes one hit of the first fault planned for this platform and step. */
  takeFault(platform: SandboxFault['platform'], step: SandboxFault['step']): SandboxFault | undefined {
    const index = this.faults.findIndex((fault) => fault.platform === platform && fault.step === step);
    if (index < 0) return undefined;
    const fault = this.faults[index];
    const left = (fault.times ?? 1) - 1;
    if (left <= 0) this.faults.splice(index, 1);
    else this.faults[index] = { ...fault, times: left };
    return fault;
  }

  /** Records a request without the credentials in its URL (TikTok's `upload_token`, Graph API's `access_token`). */
  logRequest(method: string, url: string) {
    this.requests.push({ method, url: redactUrl(url) });
    if (this.requests.length > requestLogLimit) this.requests.splice(0, this.requests.length - requestLogLimit);
  }

  /**
   * From now on every token the account was given so far is refused, refresh tokens included, as
   * after the user removed the app; a new consent grants new tokens.
   */
  revoke(platform: Platform, account: string) {
    this.revoked.add(`${platform}:${account}`);
    this.tokens.revokeAccount(platform, account);
    this.persist();
  }

  /**
   * The account a debug request names: by its key, or by a name the platform shows for it. Only
   * an account the sandbox has met (a grant, a token used, a video) is found.
   */
  findAccount(platform: Platform, name: string): string | undefined {
    const known = this.tokens.accounts(platform);
    for (const video of this.videos) if (video.platform === platform) known.add(video.account);
    if (known.has(name)) return name;
    return [...known].find((account) => shownNames(platform, account).includes(name));
  }

  countCall(platform: Platform, endpoint: string) {
    this.calls[platform][endpoint] = (this.calls[platform][endpoint] ?? 0) + 1;
  }

  resetCalls() {
    for (const platform of Object.keys(this.calls) as Platform[]) this.calls[platform] = {};
  }

  isRevoked(platform: Platform, account: string) {
    return this.revoked.has(`${platform}:${account}`);
  }

  addVideo(video: SandboxVideo) {
    this.videos.push(video);
    this.persist();
  }

  updateVideo(video: SandboxVideo, texts: Pick<SandboxVideo, 'title' | 'description' | 'tags'>) {
    Object.assign(video, texts);
    this.persist();
  }

  removeVideo(video: SandboxVideo) {
    this.videos.splice(this.videos.indexOf(video), 1);
    this.persist();
  }

  setChannelDescription(account: string, description: string) {
    this.channelDescriptions.set(account, description);
    this.persist();
  }

  /**
   * The video `id` of `platform`, through an index of positions, so reads of figures for many
   * thousands of posts cost no scan each. Tests edit `videos` directly, so an entry that no longer
   * matches is looked up by a scan, which rebuilds the index when it finds the video.
   */
  findVideo(platform: Platform, id: string): SandboxVideo | undefined {
    const at = this.videoIndex.get(`${platform}:${id}`);
    const indexed = at === undefined ? undefined : this.videos[at];
    if (indexed?.platform === platform && indexed.id === id) return indexed;
    const video = this.videos.find((entry) => entry.platform === platform && entry.id === id);
    if (video) this.videoIndex = new Map(this.videos.map((entry, position) => [`${entry.platform}:${entry.id}`, position]));
    return video;
  }

  videosOf(platform: Platform, account: string) {
    return this.videos.filter((video) => video.platform === platform && video.account === account);
  }

  /**
   * Statistics grow with the time since upload, each video at its own steady pace, so repeated
   * syncs see real-looking growth and tests can predict it from the clock.
   */
  statsOf(video: SandboxVideo) {
    const seconds = Math.max(0, (this.now() - video.createdAt) / 1000);
    const pace = 0.5 + (crypto.createHash('sha256').update(video.id).digest()[0] / 255) * 1.5;
    const views = Math.floor(seconds * pace);
    return { views, likes: Math.floor(views / 12), comments: Math.floor(views / 60) };
  }

  private persist() {
    if (!this.file) return;
    const saved: Persisted = {
      videos: this.videos,
      channelDescriptions: Object.fromEntries(this.channelDescriptions),
      revoked: [...this.revoked],
      sessions: Object.fromEntries(platformIds.map((platform) => [platform, [...this.sessions[platform]]])) as Persisted['sessions'],
      tokens: this.tokens.toJSON(),
      telegram: this.telegram.toJSON(),
    };
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    const temporary = `${this.file}.tmp`;
    fs.writeFileSync(temporary, JSON.stringify(saved));
    fs.renameSync(temporary, this.file);
  }
}

/** Random ids in each platform's own shape. */
export const ids = {
  youtubeVideo: () => crypto.randomBytes(8).toString('base64url').slice(0, 11),
  digits: (length: number) => {
    let value = String(1 + crypto.randomInt(9));
    while (value.length < length) value += String(crypto.randomInt(10));
    return value;
  },
  shortcode: () => crypto.randomBytes(8).toString('base64url').slice(0, 11),
  opaque: () => crypto.randomBytes(12).toString('base64url'),
};

/** A stable id derived from the account, for ids a real platform assigns once per account. */
export function stableId(account: string, salt: string, length: number, alphabet: 'base64url' | 'digits'): string {
  const digest = crypto.createHash('sha256').update(`${salt}:${account}`).digest();
  if (alphabet === 'base64url') return digest.toString('base64url').slice(0, length);
  const digits = (BigInt(`0x${digest.toString('hex')}`) % 10n ** BigInt(length - 1)).toString();
  return `1${digits.padStart(length - 1, '0')}`;
}
