import type { Clock } from '../clock';
import type { PostOptions, TikTokCreatorRules } from '../../src/lib/contract';
import type { PlatformNetwork } from '../net/http';
import type { accounts } from '../db/schema';
import type { LinkConnector } from './oauth-links';

/**
 * The one shape every platform connector has. A connector is stateless: everything about the
 * profile (proxy, credentials), the environment (live or sandbox endpoints) and the publication's
 * progress comes in through the context, so the publish and stats jobs own persistence.
 */

/** The registry's platform id (src/lib/platforms), under the name the server has long used. */
import type { Platform } from '../../src/lib/platforms';
export type { Platform };

/** Defined where the network's policy reads it (server/net, below the platforms). */
import type { PlatformsMode } from '../net/proxy-policy';
export type { PlatformsMode };

/** The posting caps the engine plans with where the platform publishes no figure to read (server/services/planning/posting-caps.ts). */
export interface PostingCapSettings {
  /** TIKTOK_DAILY_POSTS: posts per creator within a moving 24 hours. */
  tiktokDailyPosts: number;
  /** YOUTUBE_DAILY_UPLOADS: videos.insert calls per Google Cloud project (a profile's OAuth client) per Pacific day. */
  youtubeDailyUploads: number;
}

/** What a cap needs of a profile: whose posts count (a YouTube cap is the Google project's). */
export type CapAccount = Pick<typeof accounts.$inferSelect, 'id' | 'youtubeClientId'>;

/** The cap of one profile on one platform now: how many, over which window, and whose posts count. */
export interface Cap {
  limit: number;
  /** A moving window of this length, or (null) YouTube's Pacific day. */
  windowMs: number | null;
  /** The profiles whose posts count: the profile itself, or every profile on the same Google project. */
  scope: { accountId: number } | { youtubeClientId: string };
}

/** The hosts a connector starts from; upload hosts come back in the platforms' own answers. */
export interface Endpoints {
  /** YouTube Data API v3 and its upload endpoint. */
  'www.googleapis.com': string;
  /** TikTok Content Posting API and Display API. */
  'open.tiktokapis.com': string;
  /** Instagram API with Facebook Login (Graph API), whose Reels take resumable uploads. */
  'graph.facebook.com': string;
  /** The emulator's own root in sandbox mode (for sandbox-only calls such as the Instagram login), else null. */
  sandbox: string | null;
}

export interface Credentials {
  accessToken: string;
  /**
   * Called at most once per operation, after the platform answered 401: resolves to a fresh
   * access token (the caller stores it), or throws ProfileAuthError when the grant is revoked.
   * Absent where the platform gives no refresh (the TikTok access string): a 401 is then final.
   */
  renewRejectedToken?: () => Promise<string>;
}

/**
 * The Graph API needs the Instagram professional account's id beside a long-lived User access
 * token from Facebook Login for Business; a login and password alone open no API.
 */
export interface InstagramCredentials extends Credentials {
  igUserId: string;
}

/**
 * Progress of one publication, keyed by its publish key: resumable session URL, TikTok publish
 * id, Instagram container, and at last the result. Backed by the database, it lets the
 * successor of a killed worker resume or recognise a finished upload instead of uploading twice.
 */
export interface PublishProgressStore {
  load(publishKey: string): Promise<unknown>;
  save(publishKey: string, progress: object): Promise<void>;
}

export interface ConnectorContext<C extends Credentials = Credentials> {
  /** The profile's proxy: http://, https:// or socks5://, with credentials. Every call uses it. */
  proxy: string;
  /** Every call goes out through it, within the configured limits and proxy policy. */
  network: PlatformNetwork;
  credentials: C;
  endpoints: Endpoints;
  progress: PublishProgressStore;
  signal?: AbortSignal;
  /**
   * Records the quota units a call spent (YouTube's per-project day), so statistics reads leave
   * them to publishing; absent where the caller took its units beforehand (the sync).
   */
  spendUnits?: (units: number) => Promise<void>;
  /** Pause between processing-status checks; defaults to 5 s. */
  pollIntervalMs?: number;
  /** What those pauses go by. */
  clock: Clock;
  /** How long one attempt waits for processing before giving a transient error; defaults to 10 min. */
  pollTimeoutMs?: number;
}

export interface VideoUpload {
  path: string;
  size: number;
  contentType: string;
  title: string;
  description: string;
  tags: string[];
  /** `video-{id}-{platform}`, see publishKey(). */
  publishKey: string;
  /**
   * The post's own choices, made by the operator (or remembered for the profile) and checked
   * before queueing; a connector sends its platform's part and decides none of them itself.
   */
  options: PostOptions;
}

export interface Published {
  remoteId: string;
  url: string;
}

export interface VideoStats {
  views: number;
  likes: number;
  comments: number;
}

export interface ProfileInfo {
  id: string;
  name: string;
  description: string;
  url: string;
}

export interface Connector<C extends Credentials = Credentials> {
  readonly platform: Platform;
  /**
   * Publishes once per publish key: resumes saved progress, else asks the platform whether the
   * video is already there, and only then uploads. Safe to call again after any failure.
   */
  publish(ctx: ConnectorContext<C>, video: VideoUpload): Promise<Published>;
  /**
   * Takes a published video off the platform again, where its API has a call for it (YouTube's
   * videos.delete); absent where it has none (TikTok's and Instagram's APIs as used here), whose
   * posts are kept on record instead. A video already gone counts as deleted.
   */
  deleteVideo?(ctx: ConnectorContext<C>, remoteId: string): Promise<void>;
  fetchStats(ctx: ConnectorContext<C>, remoteId: string): Promise<VideoStats>;
  /** The most ids one call of fetchStatsOf reads at once, as the platform allows. */
  readonly statsBatchSize: number;
  /**
   * The figures of up to statsBatchSize posts in one call, by remote id; an id the platform no
   * longer knows (deleted there) is absent from the answer.
   */
  fetchStatsOf(ctx: ConnectorContext<C>, remoteIds: string[]): Promise<Map<string, VideoStats>>;
}

/** The texts of a video already on a platform, as an edit of its set changes them. */
export interface VideoTexts {
  title: string;
  description: string;
  tags: string[];
  publishKey: string;
  /** The category the video was published in: videos.update replaces the whole snippet. */
  categoryId?: string;
}

export interface YouTubeConnector extends Connector {
  /** videos.update of the snippet: title, description and tags, keeping the publish key among the tags. */
  updateVideo(ctx: ConnectorContext, remoteId: string, texts: VideoTexts): Promise<void>;
  fetchChannel(ctx: ConnectorContext): Promise<ProfileInfo>;
  /** Sets brandingSettings.channel.description, the channel description viewers see. */
  updateChannelDescription(ctx: ConnectorContext, description: string): Promise<void>;
}

/**
 * The Instagram Graph API reads a professional account's `name` and `biography` but offers no
 * call that changes them (the IG User node supports reading only), so the operator's profile
 * name and description stay in our database and the connector can only read the live values.
 */
/** Instagram's own figure for an account's posting cap: `quota_total` posts per `quota_duration`. */
export interface PublishingLimit {
  limit: number;
  windowSeconds: number;
}

export interface InstagramConnector extends Connector<InstagramCredentials> {
  fetchProfile(ctx: ConnectorContext<InstagramCredentials>): Promise<ProfileInfo>;
  publishingLimit(ctx: ConnectorContext<InstagramCredentials>): Promise<PublishingLimit>;
}

export interface TikTokConnector extends Connector {
  /** The creator the access string posts as (creator_info), which is also how a string is checked. */
  fetchCreator(ctx: ConnectorContext): Promise<ProfileInfo>;
  /** What creator_info/query allows the creator now: privacy levels, switches, longest video. */
  creatorRules(ctx: ConnectorContext): Promise<TikTokCreatorRules>;
}

export { publishKey } from '../../src/lib/posting-rules/caption';

/** Where a platform's statistics reads count their units, and how many they may spend in its period. */
export interface QuotaPeriod {
  holder: string;
  period: string;
  limit: number;
}

/** What the statistics reads of each platform may spend (STATS_*; server/services/statistics/quota-ledger.ts). */
export interface ReadQuotaSettings {
  /** STATS_YOUTUBE_DAILY_UNITS: a Google project's units a Pacific day (YouTube Data API default 10,000). */
  youtubeDailyUnits: number;
  /** STATS_YOUTUBE_PUBLISH_RESERVE: units of those reads leave to publishing and edits. */
  youtubePublishReserve: number;
  /** STATS_TIKTOK_QUERIES_PER_MINUTE: video/query calls a token may make a minute (TikTok's default 600). */
  tiktokQueriesPerMinute: number;
  /** STATS_INSTAGRAM_CALLS_PER_HOUR: Graph calls an account's reads may make an hour (batch operations count one each). */
  instagramCallsPerHour: number;
}

/** What a read's quota needs of a profile: whose units it spends. */
export type QuotaProfile = Pick<typeof accounts.$inferSelect, 'id' | 'youtubeClientId' | 'instagramUserId' | 'instagramLogin'>;

/** A typed credential as stored (account_connections), as far as a platform's rules read it. */
export interface TypedConnection {
  method: 'oauth' | 'pasted' | 'login';
  remoteId: string | null;
  remoteName: string | null;
}

/** Which platforms' hosts this server reaches: the real ones, or its sandbox's. */
export interface ModeAccess {
  mode: PlatformsMode;
  sandboxOrigin: string;
}

/** The pieces a profile's connector context is made of, before the credentials. */
export type ContextBase = Omit<ConnectorContext, 'credentials'>;

/**
 * The server's side of one platform (server/platforms/<id>/index.ts), beside its shared descriptor
 * (src/lib/platforms/<id>.ts): what only the server knows. server/platforms/registry.ts lists them.
 */
export interface ServerPlatform {
  /** Publishes and reads statistics. */
  connector: Connector<any>;
  /** Links a profile through the platform's consent page. */
  link: LinkConnector;
  /** The host the platform's cheap read goes to: the health check asks the profile's proxy for a tunnel there. */
  apiHost: Exclude<keyof Endpoints, 'sandbox'>;
  /** The cheap read of whom the credentials reach: the health check's and a save's check of the access. */
  whoAmI(ctx: ConnectorContext<any>): Promise<ProfileInfo>;
  /** How the operator is shown the account that read found. */
  accountName(info: ProfileInfo): string;
  /**
   * Whether its refresh token rotates (TikTok, Instagram): then only the refresher renews an
   * access token, never a health check. Google's neither rotates nor ages with use.
   */
  refreshRotates: boolean;
  /**
   * Days before the grant's end (a refresh token's, a long-lived token's) when its owner is told:
   * enough to consent again before posts wait, not so many that a short grant warns at consent.
   */
  endingNoticeDays: number;
  /** Its posting cap for a profile now; `live` is the platform's own figure where it publishes one (descriptor's cap.live). */
  cap(account: CapAccount, settings: PostingCapSettings, live: PublishingLimit | null): Cap | null;
  /** Reads the platform's own cap figure through the profile's context, cached per `key`; null when it cannot tell. */
  readLiveCap?(key: string, context: () => Promise<ConnectorContext<any>>): Promise<PublishingLimit | null>;
  /** Where a statistics read of the profile spends its units, and how many its period allows. */
  readQuota(account: QuotaProfile, settings: ReadQuotaSettings, now: Date): QuotaPeriod;
  /** The units one call of fetchStatsOf spends for `posts` ids. */
  statsReadUnits(posts: number): number;
  /** The credentials of a profile: a consent link's token, else a typed credential where the platform takes one. */
  credentials: {
    /** Whether the profile may use its consent link (YouTube: only once its channel was connected); always when absent. */
    linkUsable?(account: { inYouTube: boolean }): boolean;
    /** The context a consent link's token makes. */
    linked(base: ContextBase, credentials: Credentials, link: TypedConnection, access: ModeAccess): ConnectorContext<any>;
    /** A credential typed on the profile form, where the platform takes one (absent: the consent link alone). */
    typed?: {
      /** How it is typed in this mode. */
      method(mode: PlatformsMode): 'pasted' | 'login';
      /** Whether the stored credential holds all a platform call needs besides its secret. */
      ready(connection: TypedConnection): boolean;
      /** Whether SPEC counts it as the platform connected. */
      countsAsConnected(connection: TypedConnection): boolean;
      /** Whether a pasted one ends a known time after it is pasted (TikTok's access string), which the form counts down. */
      pastedEnds: boolean;
      /** The context from the stored credential and its opened secret; throws a PlatformError when they reach nothing. */
      context(
        base: ContextBase,
        method: 'pasted' | 'login',
        connection: TypedConnection | undefined,
        secret: string | null,
      ): Promise<ConnectorContext<any>>;
    };
  };
}
