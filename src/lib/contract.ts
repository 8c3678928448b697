/**
 * The shapes that cross the wire between the SPA and the server, derived from the route schemas
 * in ./contract/ (the one source: Fastify validates and serializes with them). Types only, so no
 * schema code reaches the browser; the lists (./contract/lists.ts) are values both sides read.
 */
import type { Static } from '@sinclair/typebox';
import type * as accounts from './contract/accounts';
import type * as apiTokens from './contract/api-tokens';
import type * as alerts from './contract/alerts';
import type * as auth from './contract/auth';
import type * as common from './contract/common';
import type * as home from './contract/home';
import type * as media from './contract/media';
import type * as operatorDay from './contract/operator-day';
import type * as groupsTags from './contract/groups-tags';
import type * as postingRules from './contract/posting-rules';
import type * as plans from './contract/plans';
import type * as postingSlots from './contract/posting-slots';
import type * as statsRange from './contract/stats-range';
import type * as users from './contract/users';

export type Role = Static<typeof common.Role>;
export type SessionUser = Static<typeof common.SessionUser>;
export type LoginResponse = Static<typeof auth.LoginResponse>;
export type RefreshResponse = Static<typeof auth.RefreshResponse>;

export type Paged<T> = Static<typeof common.PageInfo> & { data: T[] };
export type ErrorResponse = Static<typeof common.ErrorBody>;

/** One platform's id: the registry's (src/lib/platforms), under the name the SPA has long used. */
import type { Platform as PlatformName, ConsentPlatform } from './platforms';
export type { PlatformName, ConsentPlatform };
export type VideoStatus = Static<typeof common.VideoStatus>;
export { postStates, type PostState } from './contract/lists';
export type VideoPost = Static<typeof common.VideoPost>;
export type PostCounts = Static<typeof common.PostCounts>;
export type AccountStatus = Static<typeof accounts.AccountStatus>;
export type RequestStatus = Static<typeof media.RequestStatus>;

export type Photo = Static<typeof media.Photo>;
export type BackgroundChoices = Static<typeof media.BackgroundChoices>;
export type CreationRequestRow = Static<typeof media.CreationRequestRow>;
export type RequestVideoItem = Static<typeof media.RequestVideoItem>;
export type CreationRequestDetail = Static<typeof media.CreationRequestDetail>;

export type IpVersion = Static<typeof accounts.IpVersion>;
/** One choice of a multi-select; profiles are offered as `{ id, title, value }` with value = id. */
export type SelectOption = Static<typeof common.SelectOption>;
export type AccountOwner = Static<typeof accounts.AccountOwner>;
export type ConnectedAs = Static<typeof accounts.ConnectedAs>;
export type AccountSummary = Static<typeof accounts.AccountSummary>;
export type PlatformState = Static<typeof accounts.PlatformState>;
export type ProfileHealth = Static<typeof accounts.ProfileHealth>;
export type ReachMark = Static<typeof accounts.ReachMark>;
export {
  connectionKinds,
  connectionSources,
  connectionStates,
  type ConnectionKind,
  type ConnectionSource,
  type ConnectionState,
} from './contract/lists';
/** The fields of the profile form, as POST /api/accounts and PATCH /api/accounts/{id} take them, every one filled. */
export type AccountFields = Required<Static<typeof accounts.accountFieldsSchema>>;
/** POST /api/accounts and PATCH /api/accounts/{id} as the profile form sends them. */
export type AccountBody = AccountFields & { connectByConsent: ConsentPlatform[]; connecting?: PlatformName };
export type ProfileSetup = Static<typeof accounts.ProfileSetup>;
export type VideoSummary = Static<typeof common.VideoSummary>;

export { secretFields, type SecretField } from './contract/lists';

export type PlatformConnection = Static<typeof accounts.PlatformConnection>;
export type SavedSecrets = Static<typeof accounts.SavedSecrets>;
export type AccountDetail = Static<typeof accounts.AccountDetail>;
export type HealthCheckAnswer = Static<typeof accounts.HealthCheckAnswer>;
export type AccountGroup = Static<typeof common.AccountGroup>;
export type AccountGroupDetail = Static<typeof groupsTags.AccountGroupDetail>;
export type PostingSlots = Static<typeof postingSlots.PostingSlots>;
export type EffectiveSlots = Static<typeof postingSlots.EffectiveSlots>;
export type SlotsSource = Static<typeof postingSlots.SlotsSource>;

export { apiTokenScopes, type ApiTokenScope } from './contract/lists';
export type ApiToken = Static<typeof apiTokens.ApiToken>;
export type CreatedApiToken = Static<typeof apiTokens.CreatedApiToken>;
export type TagSet = Static<typeof common.TagSet>;
export type ManagedUser = Static<typeof users.ManagedUser>;
export type UserDetail = Static<typeof users.UserDetail>;
export type ConnectYouTubeResponse = Static<typeof accounts.ConsentLink>;

export type PublicationRequestDetail = Static<typeof media.PublicationRequestDetail>;
export type PublishProfileOption = Static<typeof media.PublishProfileOption>;
type PublishBody = Static<typeof media.PublishBody>;
/** POST /api/upload-video/{idUpload} as the publish form sends it: the body with the parts the form always fills. */
export type PublishPayload = PublishBody &
  Required<Pick<PublishBody, 'title' | 'description' | 'tags'>> & { accounts: SelectOption[]; video: PublishVideoItem[] };

/** A video of the publish form: what the detail gave, the operator's choices, and two fields of the form's own. */
export interface PublishVideoItem {
  id: number;
  /** Null until the video is rendered, as the detail gives it; the form offers only rendered ones. */
  url: string | null;
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

export type UploadRow = Static<typeof media.UploadRow>;

/** What the operator narrows a list to, carried by the list's URL (`?q=&status=&platform=`). */
export interface ListFilters {
  q?: string;
  status?: string;
  platform?: PlatformName;
}

export type PublishedVideo = Static<typeof media.PublishedVideo>;
export type PostReach = Static<typeof media.PostReach>;
export type PlatformEdit = Static<typeof media.PlatformEdit>;
export type UploadDetail = Static<typeof media.UploadDetail>;
export type ReschedulePayload = Static<typeof media.RescheduleBody>;
export type RetryPayload = Static<typeof media.RetryBody>;
export type SpreadPayload = Static<typeof media.SpreadBody>;
export type SpreadProposal = Static<typeof media.SpreadProposal>;
export type SpreadMode = Static<typeof media.SpreadMode>;

export { statsPeriods, type StatsPeriod } from './contract/lists';
export { waitKinds, type WaitKind } from './contract/lists';

export type StatsFigures = Static<typeof operatorDay.StatsFigures>;
export type StatsReport = Static<typeof operatorDay.StatsReport>;
export type CalendarPost = Static<typeof operatorDay.CalendarPost>;
export type CalendarRange = Static<typeof operatorDay.CalendarRange>;
export type NotificationKind = Static<typeof operatorDay.NotificationKind>;
export type NotificationItem = Static<typeof operatorDay.NotificationItem>;
export type NotificationList = Static<typeof operatorDay.NotificationList>;
export type PostingBudget = Static<typeof operatorDay.PostingBudget>;
export type PostingBudgets = Static<typeof operatorDay.PostingBudgets>;

export type StatsRangeQuery = Static<typeof statsRange.StatsRangeQuery>;
export type TopVideo = Static<typeof statsRange.TopVideo>;
export type TopVideos = Static<typeof statsRange.TopVideos>;
export type StatsChoices = Static<typeof statsRange.StatsChoices>;
export type StatsOverview = Static<typeof statsRange.StatsOverview>;
export type PlatformTotals = Static<typeof statsRange.PlatformTotals>;
export type RankedProfile = Static<typeof statsRange.RankedProfile>;

export type AttentionProfile = Static<typeof home.AttentionProfile>;
export type HomeSummary = Static<typeof home.HomeSummary>;

export type TikTokPostOptions = Static<typeof postingRules.TikTokPostOptions>;
export type YouTubePostOptions = Static<typeof postingRules.YouTubePostOptions>;
export type InstagramPostOptions = Static<typeof postingRules.InstagramPostOptions>;
export type PostOptions = Static<typeof postingRules.PostOptions>;
export type TikTokCreatorRules = Static<typeof postingRules.TikTokCreatorRules>;
export type ProfilePostingRules = Static<typeof postingRules.ProfilePostingRules>;

export { alertEvents, defaultWebhookEvents, telegramEvents, type AlertEvent, type TelegramEvent } from './contract/lists';
export type TelegramSettings = Static<typeof alerts.TelegramSettings>;
export type Webhook = Static<typeof alerts.Webhook>;
export type WebhookDelivery = Static<typeof alerts.WebhookDelivery>;
export type WebhookTestResult = Static<typeof alerts.WebhookTestResult>;
export type TelegramTestResult = Static<typeof alerts.TelegramTestResult>;

/** Issue 43.3–43.4: a plan file's preview, its confirm and a period's export. */
export type PlanPreview = Static<typeof plans.PlanPreview>;
export type PlanPreviewRow = Static<typeof plans.PlanPreviewRow>;
export type PlanCommitted = Static<typeof plans.PlanCommitted>;
export type PlanCommitRequest = Static<typeof plans.PlanCommitRequest>;
export type PlanExport = Static<typeof plans.PlanExport>;
