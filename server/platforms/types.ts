import type { Clock } from '../clock';
import type { PostOptions, TikTokCreatorRules } from '../../src/lib/contract';
import type { PlatformNetwork } from './http';
import type { accounts } from '../db/schema';

/**
 * The one shape every platform connector has. A connector is stateless: everything about the
 * profile (proxy, credentials), the environment (live or sandbox endpoints) and the publication's
 * progress comes in through the context, so the publish and stats jobs own persistence.
 */

export type Platform = 'youtube' | 'tiktok' | 'instagram';

export type PlatformsMode = 'sandbox' | 'live';

/** The posting caps the engine plans with where the platform publishes no figure to read (server/services/posting-caps.ts). */
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

export function publishKey(videoId: number, platform: Platform): string {
  return `video-${videoId}-${platform}`;
}
