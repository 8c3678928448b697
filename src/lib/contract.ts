/** Shapes that cross the wire between the SPA and the server. Pure types: the server imports them too. */

export type Role = 'admin' | 'user';

export interface SessionUser {
  id: number;
  login: string;
  role: Role;
}

export interface LoginResponse {
  user: SessionUser;
  accessToken: string;
  refreshToken: string;
}

export interface RefreshResponse {
  accessToken: string;
  refreshToken: string;
}

export interface Paged<T> {
  data: T[];
  page: number;
  totalPages: number;
  total: number;
}

export interface ErrorResponse {
  statusCode: number;
  error: string;
  message: string | string[];
}

export type VideoStatus = 'loading' | 'publication' | 'success' | 'error' | 'noactive';
export type AccountStatus = 'publication' | 'loading' | 'success' | 'error' | 'noactive';

/** `published` is not shown as a label (SPEC): the list offers the published set instead. */
export type RequestStatus = 'loading' | 'success' | 'error' | 'published';

export interface Photo {
  id: number;
  /** A signed, expiring media URL. */
  url: string;
}

/** The images the create form offers as backgrounds: the operator's own. */
export interface BackgroundChoices {
  data: Photo[];
}

export interface CreationRequestRow {
  id: number;
  idUpload: string;
  status: RequestStatus;
  countVideo: number;
  createdAt: string;
  /** The uploaded file's name; null for requests made before it was kept. */
  sourceName?: string | null;
  /** The first rendered variant's poster, signed; null until one is rendered. */
  posterUrl?: string | null;
  /** A published request's set status (UploadRow's). */
  publicationStatus?: VideoStatus;
}

/** A rendered variant of a creation request; `url` and `posterUrl` are null until it is rendered. */
export interface RequestVideoItem {
  id: number;
  url: string | null;
  posterUrl: string | null;
  idUpload: string;
  createdAt: string;
  status: VideoStatus;
  error: string | null;
  errorInstagram: string | null;
  urlInstagram: string | null;
  urlYouTube: string | null;
  /** `title`: the profile's name (its comment, else the account it reaches), where the list sends it. */
  account: { id: number; title?: string } | null;
  date: string | null;
}

export interface CreationRequestDetail extends CreationRequestRow {
  error: string | null;
  video: RequestVideoItem[];
}

export type IpVersion = 'ipv4' | 'ipv6';

/** One choice of a multi-select; profiles are offered as `{ id, title, value }` with value = id. */
export interface SelectOption {
  id: number;
  title: string;
  value: number;
}

export interface AccountOwner {
  id: number;
  login: string;
}

/** A profile as lists show it: never any secret. */
/** The account each platform named when the profile's credentials were last checked. */
export type ConnectedAs = Partial<Record<PlatformName, string>>;

export interface AccountSummary {
  id: number;
  proxy: string;
  ipVersion: IpVersion;
  comments: string;
  status: AccountStatus;
  group: { id: number; name: string } | null;
  user: AccountOwner;
  isActiveYouTube: boolean;
  isActiveTikTok: boolean;
  isActiveInstagram: boolean;
  inYouTube: boolean;
  inTikTok: boolean;
  inInstagram: boolean;
  connectedAs: ConnectedAs;
  /** Platforms whose access failed and stands (the profile's error): not shown as connected. */
  failedPlatforms: PlatformName[];
}

/** The fields of the profile form, as POST /api/accounts and PATCH /api/accounts/{id} take them. */
export interface AccountFields {
  proxy: string;
  ipVersion: IpVersion;
  comments: string;
  isActiveYouTube: boolean;
  isActiveTikTok: boolean;
  isActiveInstagram: boolean;
  YouTubeAuthClientId: string;
  YouTubeAuthClientSecret: string;
  YouTubeLogin: string;
  YouTubePassword: string;
  InstagramLogin: string;
  InstagramPassword: string;
  /** Live mode only: a long-lived token of Instagram API with Facebook Login, and the account's id. */
  InstagramAccessToken: string;
  InstagramUserId: string;
  TikTiokAuthStr: string;
}

export interface VideoSummary {
  id: number;
  date: string | null;
  status: VideoStatus;
  views: number;
  likes: number;
  comments: number;
  viewsInstagram: number;
  likesInstagram: number;
  commentsInstagram: number;
  viewsTikTok: number;
  likesTikTok: number;
  commentsTikTok: number;
  urlYouTube: string | null;
  urlInstagram: string | null;
  urlTiktok: string | null;
  error: string | null;
  errorInstagram: string | null;
  /** `title`: the profile's name (its comment, else the account it reaches), where the list sends it. */
  account: { id: number; title?: string } | null;
}

/** The form fields whose values are secrets: written by the form, never sent back. */
export const secretFields = [
  'YouTubeAuthClientSecret',
  'YouTubePassword',
  'InstagramPassword',
  'InstagramAccessToken',
  'TikTiokAuthStr',
] as const;
export type SecretField = (typeof secretFields)[number];

/**
 * How a profile reaches a platform: `oauth` through the platform's consent page (kept fresh by the
 * server), `pasted` a TikTok access string typed in the form. Tokens never leave the server.
 */
export interface PlatformConnection {
  platform: 'youtube' | 'tiktok' | 'instagram';
  method: 'oauth' | 'pasted';
  /** `revoked`: the platform no longer honours the grant; only connecting again helps. */
  state: 'connected' | 'revoked';
  /** The account the grant reaches, as the platform names it. */
  name: string | null;
  /** When the access stops working unless renewed: shown for a pasted string, which nothing renews. */
  expiresAt: string | null;
}

/** Which secrets are stored; the proxy's password counts as one (the proxy itself is shown without it). */
export type SavedSecrets = Record<SecretField | 'proxyPassword', boolean>;

/**
 * The detail, for the owner or an admin. Secrets are write-only: their fields come back empty
 * and `savedSecrets` says which are stored, so the form shows "збережено" and a blank field
 * keeps the stored value.
 */
export interface AccountDetail extends AccountSummary, AccountFields {
  savedSecrets: SavedSecrets;
  /** The profile's links to TikTok and Instagram made through their consent pages, and its pasted TikTok string's age. */
  connections: PlatformConnection[];
  description: string;
  titleChannel: string;
  urlChannel: string;
  urlInstagram: string;
  profileNameInstagram: string;
  profileDescriptionInstagram: string;
  /** The failure a platform connector last reported, shown while the status is 'error'. */
  error: string | null;
  video: Paged<VideoSummary>;
}

export interface AccountGroup {
  id: number;
  name: string;
  accounts: SelectOption[];
}

export interface TagSet {
  id: number;
  name: string;
  tags: string[];
}

export interface ManagedUser {
  id: number;
  login: string;
  role: Role;
  videosCount: number;
  accountsCount: number;
}

export interface UserDetail {
  user: ManagedUser;
  accounts: Paged<AccountSummary>;
  video: Paged<VideoSummary>;
}

export interface ConnectYouTubeResponse {
  url: string;
}

/**
 * The publish form's data, GET /api/create-video/request/{idUpload}: the rendered request plus
 * what the form offers (the spec's "Publication request").
 */
export interface PublicationRequestDetail extends CreationRequestDetail {
  /** Every profile of the request's owner, for the Профіля multi-select, with the platforms each has switched on. */
  accounts: PublishProfileOption[];
  /** Tag-set chips that fill the tags. */
  tagProfile: TagSet[];
  /** Group chips that fill the profiles. */
  group: AccountGroup[];
}

/** A profile the publish form offers: the form warns when it lacks a ticked platform. */
export interface PublishProfileOption extends SelectOption {
  platforms: PlatformName[];
}

export interface PublishVideoItem {
  id: number;
  url: string;
  idUpload: string;
  createdAt: string;
  /** Null leaves the video on 'Будь-який': the server picks one of the chosen profiles, round-robin. */
  account?: SelectOption | null;
  /** `YYYY-MM-DDTHH:mm` in Europe/Kiev wall time, or an ISO time with an offset; null means the form's date. */
  date?: string | null;
  /** The form's own: the operator picked `account`, so a change of the chosen profiles keeps it. Never sent. */
  byHand?: boolean;
  /** The form's own: the profile picked by hand that was then removed from the choice, said on the video. Never sent. */
  lostProfile?: SelectOption | null;
}

/** POST /api/upload-video/{idUpload} */
export interface PublishPayload {
  id?: number;
  title: string;
  description: string;
  tags: string[];
  accounts: SelectOption[];
  video: PublishVideoItem[];
  inYouTube: boolean;
  inTikTok: boolean;
  inInstagram: boolean;
  /** Like a video's date; null or absent means at once. */
  date?: string | null;
  /** Issue 22.3: the platforms' own choices; absent, the profiles' remembered ones apply. */
  options?: PostOptions;
}

/** A row of the YouTube list, GET /api/upload-video?page= : one published set. */
export interface UploadRow {
  id: number;
  idUpload: string;
  status: VideoStatus;
  title: string;
  sourceName: string | null;
  posterUrl: string | null;
  publishedAt: string;
  countVideo: number;
}

/** What the operator narrows a list to, carried by the list's URL (`?q=&status=&platform=`). */
export interface ListFilters {
  q?: string;
  status?: string;
  platform?: PlatformName;
}

export interface PublishedVideo extends VideoSummary {
  idUpload: string;
  /** Signed media URLs of the rendered file and its poster. */
  url: string | null;
  posterUrl: string | null;
  errorTiktok: string | null;
  urlTiktok: string | null;
  /** Ticked platforms its profile lacks, or a cancelled publication: why a post was never made. */
  publishNote: string | null;
  /** Why a post still on its way has not gone out yet (a retry, a busy profile, a platform's wait). */
  waitReason: string | null;
  /** What kind of wait that is (src/lib/post-waits.ts); null when no post waits. */
  waitKind: WaitKind | null;
  /** When that post is tried next (ISO). */
  nextAttemptAt: string | null;
  /** When its posts are due while none has started (ISO); null once one has, or without posts. */
  plannedAt: string | null;
  /** True while every post of the video waits unstarted: its date and profile can change, or it can be cancelled. */
  changeable: boolean;
}

/** Where the last edit of a published set's texts reached on one platform with published videos. */
export interface PlatformEdit {
  platform: PlatformName;
  /** False where the platform has no call that edits a published post (TikTok, Instagram). */
  editable: boolean;
  /** Videos whose edit is on its way, and those that took it. */
  pending: number;
  done: number;
  /** Why the platform refused it, one line per video. */
  errors: string[];
}

/** GET /api/upload-video/{idUpload}; PATCH answers the same after an edit. */
export interface UploadDetail {
  id: number;
  idUpload: string;
  status: VideoStatus;
  title: string;
  description: string;
  /** Comma-separated, as the spec's detail has it. */
  tags: string;
  tagProfile: TagSet[];
  video: PublishedVideo[];
  edits: PlatformEdit[];
  /** The owner's profiles, for moving a scheduled video to another one. */
  accounts: PublishProfileOption[];
}

/** PATCH /api/upload-video/{idUpload}/video/{videoId}: a scheduled video's new date and/or profile. */
export interface ReschedulePayload {
  /** Like the publish form's dates: Kyiv wall time `YYYY-MM-DDTHH:mm`; absent keeps the date. */
  date?: string;
  /** Absent keeps the profile. */
  accountId?: number;
}

/** POST /api/upload-video/upload: publish a failed video again. `youTubeId` is the set's idUpload. */
export interface RetryPayload {
  videoId: number;
  youTubeId: string;
}

export type PlatformName = 'youtube' | 'tiktok' | 'instagram';

/** The periods a statistics chart covers, in days. */
export const statsPeriods = [1, 7, 30, 90] as const;
export type StatsPeriod = (typeof statsPeriods)[number];

export interface StatsFigures {
  /** Posts with figures synced at least once. */
  posts: number;
  views: number;
  likes: number;
  comments: number;
}

/**
 * GET /api/stats/video/{idUpload} and /api/stats/accounts/{id}?days=: views over time and the
 * latest totals of a published set's or a profile's posts.
 */
export interface StatsReport {
  days: StatsPeriod;
  /** The series' moments, Unix seconds, oldest first; the last is now. */
  at: number[];
  /** Per platform with synced posts: views at each moment, summed over its posts. */
  views: { platform: PlatformName; values: number[] }[];
  byPlatform: (StatsFigures & { platform: PlatformName })[];
  /** Null stands for posts whose profile was deleted. */
  byProfile: (StatsFigures & { account: { id: number; title: string } | null })[];
  /** The latest sync of any of these posts. */
  syncedAt: string | null;
}

export type PostStatus = 'pending' | 'done' | 'error';

/** Why a pending post waits: a failed attempt tried again, a busy profile, the platform's own wait, a posting cap, a revoked grant. */
export type WaitKind = 'retry' | 'busy' | 'quota' | 'cap' | 'reconnect';

/** One upload of a video to a platform, as the calendar shows it. */
export interface CalendarPost {
  id: number;
  videoId: number;
  idUpload: string;
  title: string;
  platform: PlatformName;
  status: PostStatus;
  scheduledAt: string;
  account: { id: number; title: string };
  /** Why a pending post waits (a posting cap, a busy profile, a retry); null when it does not. */
  waitReason: string | null;
  waitKind: WaitKind | null;
}

/** GET /api/calendar?from=&to=&accountId= */
export interface CalendarRange {
  posts: CalendarPost[];
  /** More posts fall in the range than one answer carries. */
  truncated: boolean;
  /** The profiles with posts in the range, for the filter (whatever profile it is set to). */
  accounts: { id: number; title: string }[];
}

export type NotificationKind = 'render_done' | 'render_failed' | 'publish_failed' | 'credentials_failed' | 'credentials_ending';

export interface NotificationItem {
  id: number;
  kind: NotificationKind;
  /** The set or request it is about, for renders and publishes. */
  idUpload: string | null;
  /** The profile it is about, named as the profile lists name it (its comment, else the account it reaches). */
  account: { id: number; name: string } | null;
  /** The set's title, for renders and publishes. */
  title: string | null;
  platform: PlatformName | null;
  message: string | null;
  createdAt: string;
  read: boolean;
}

/** GET /api/notifications: the newest first, bounded. */
export interface NotificationList {
  items: NotificationItem[];
  unread: number;
}

/** One profile's posting cap on one platform for a Kyiv day (GET /api/accounts/budget). */
export interface PostingBudget {
  accountId: number;
  platform: PlatformName;
  /** Posts allowed in the platform's window; null when the platform could not say (Instagram unreachable). */
  limit: number | null;
  /** Posts that went out that day (on YouTube: from every profile on the same Google project). */
  used: number;
  /** Posts still waiting that are planned for that day. */
  planned: number;
  /** What is left for new posts that day; null with an unknown limit. */
  remaining: number | null;
}

/** GET /api/accounts/budget?accountIds=1,2&date=YYYY-MM-DD */
export interface PostingBudgets {
  date: string;
  budgets: PostingBudget[];
}

/** TikTok's `post_info` choices of one post, in TikTok's own names, camelCased. */
export interface TikTokPostOptions {
  privacyLevel?: string;
  disableComment?: boolean;
  disableDuet?: boolean;
  disableStitch?: boolean;
  /** Branded content: promoting another brand or a third party (a paid partnership). */
  brandContentToggle?: boolean;
  /** "Your brand": promoting the creator's own business. */
  brandOrganicToggle?: boolean;
}

/** YouTube videos.insert `status` and `snippet.categoryId` choices of one post. */
export interface YouTubePostOptions {
  privacyStatus?: 'public' | 'unlisted' | 'private';
  selfDeclaredMadeForKids?: boolean;
  categoryId?: string;
}

/** Instagram Reels container choices of one post. */
export interface InstagramPostOptions {
  shareToFeed?: boolean;
  /** Milliseconds into the video for the cover frame. */
  thumbOffset?: number;
}

/** `options` of POST /api/upload-video/{idUpload} and a profile's saved defaults; every part optional. */
export interface PostOptions {
  tiktok?: TikTokPostOptions;
  youtube?: YouTubePostOptions;
  instagram?: InstagramPostOptions;
}

/** What TikTok's creator_info/query allows one profile right now. */
export interface TikTokCreatorRules {
  nickname: string;
  username: string;
  privacyLevelOptions: string[];
  commentDisabled: boolean;
  duetDisabled: boolean;
  stitchDisabled: boolean;
  maxVideoPostDurationSec: number;
}

/** GET /api/posting-rules?accountIds=: per chosen profile, what each platform allows and its saved choices. */
export interface ProfilePostingRules {
  accountId: number;
  title: string;
  platforms: ('youtube' | 'tiktok' | 'instagram')[];
  /** Null with `tiktokError` when creator_info could not be read. */
  tiktok: TikTokCreatorRules | null;
  tiktokError: string | null;
  saved: PostOptions;
}
