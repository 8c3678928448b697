import type { TikTokCreatorRules } from '../contract';
import type { PostedVideo, Refusal } from '../posting-rules/refusal';

type Texts = { title: string; description: string; tags: string[] };

/**
 * One limit of a post's words as the platform counts it (issue 43.2): a field's characters or
 * UTF-8 bytes, or the caption's (title, description and hashtags as the connector joins them)
 * characters or hashtags. The publish form counts each as the operator types, and the route
 * refuses the same (src/lib/post-texts.ts).
 */
export interface TextCounter {
  readonly field: 'title' | 'description' | 'tags' | 'caption';
  readonly unit: 'characters' | 'bytes' | 'hashtags';
  readonly limit: number;
}

/**
 * A platform's own rules for a post (src/lib/posting-rules/<platform>.ts), as the generic checks
 * (src/lib/posting-rules/index.ts) call them. Methods, so each platform takes its own options.
 */
export interface PostingRules<Options extends object = object> {
  /** What a post gets for a choice nobody made. */
  readonly defaults: Options;
  /** The choices as made (the profile's remembered ones included), before any creator is asked. */
  choiceRefusal(choice: Options): Refusal | null;
  /** What the texts alone decide, whatever the video and the profile. */
  textRefusal(texts: Texts): Refusal | null;
  /** The checks of one post that need no platform call; `creator` is TikTok's creator_info where read. */
  postRefusal(
    options: Options,
    texts: Texts,
    video: PostedVideo & { publishKey: string },
    creator: TikTokCreatorRules | null,
  ): Refusal | null;
}

/**
 * Everything the SPA and the server both know of one platform: one module per platform beside
 * this one, listed in order by ./index.ts. The server's connector (server/platforms/<id>/) adds
 * what only the server knows. The display name is the catalog's, keyed by id (t.platform.names).
 */
export interface PlatformDescriptor {
  readonly id: string;
  /**
   * SPEC names it: its request fields (`inTikTok`…) are required, as SPEC has them. A platform
   * added since is optional there and off when absent, so a client sending SPEC's payloads
   * unchanged loses nothing.
   */
  readonly inSpec: boolean;
  /**
   * SPEC's and the contract's field names for the platform, which the wire mappers read. The
   * accounts table and the videos table (Drizzle) take the same names.
   */
  readonly fields: {
    /** The profile's switch: the platform is in use on it (AccountSummary, the profile form). */
    readonly switchedOn: string;
    /** Ticked on a video request; on a profile, connected (AccountSummary). */
    readonly ticked: string;
    /** A video's link on the platform. */
    readonly url: string;
    /** A video's failure on the platform. */
    readonly error: string;
    readonly views: string;
    readonly likes: string;
    readonly comments: string;
  };
  /** The same facts as SQL columns of accounts (switchedOn), creation_requests (ticked) and videos (the rest). */
  readonly columns: {
    readonly switchedOn: string;
    readonly ticked: string;
    readonly url: string;
    readonly views: string;
    readonly likes: string;
    readonly comments: string;
  };
  /**
   * Its line on the statistics chart: colour, and dash pattern (empty: solid). Each line has its own
   * dash as well as its colour, so a line drawn over another that runs close (TikTok's under
   * Instagram's) still shows through its gaps, and colour is not the only tell.
   */
  readonly colour: string;
  readonly dash: readonly number[];
  /** Its text and length limits, as its posting rules check them. */
  readonly limits: Readonly<Record<string, number>>;
  /** Its limits of a post's words, as the form counts them; a caption's characters leave the publish key's line its room. */
  readonly textCounters: readonly TextCounter[];
  /**
   * Its posting cap (docs/publishing.md#posting-caps): counted over a moving window of
   * `windowHours`, or over YouTube's Pacific day; per profile or per Google project; its figure
   * from a setting, or read from the platform itself (`live`).
   */
  readonly cap:
    | { readonly window: 'moving'; readonly windowHours: number | null; readonly per: 'profile'; readonly live: boolean }
    | { readonly window: 'pacific-day'; readonly per: 'google-project'; readonly live: false };
  readonly rules: PostingRules;
  /** What the product does with it once a video is out. */
  readonly can: {
    /** Change a published video's texts when its set is edited. */
    readonly editAfterPublish: boolean;
    /** Take a published video off the platform again. */
    readonly delete: boolean;
    /** Read a published video's views, likes and comments. */
    readonly statistics: boolean;
    /** A cheap read that tells the health check whether the profile's access works. */
    readonly healthRead: boolean;
  };
  /**
   * How a profile connects: through the consent page of the installation's app (a platform of
   * its own callback and `connect-<id>` route), or with the profile's own OAuth client (YouTube).
   */
  readonly consent: 'installation-app' | 'profile-client';
  /** The variables naming the installation's app, its id then its secret: a platform connected through the app's consent has them. */
  readonly appVariables?: readonly [string, string];
}
