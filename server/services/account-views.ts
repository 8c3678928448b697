import { eq, inArray } from 'drizzle-orm';
import type {
  AccountDetail,
  AccountStatus,
  AccountSummary,
  ConnectedAs,
  EffectiveSlots,
  HealthReason,
  HealthState,
  Paged,
  PlatformConnection,
  PlatformName,
  ProfileHealth,
  PublishProfileOption,
  SavedSecrets,
  SelectOption,
  VideoSummary,
} from '../../src/lib/contract';
import { t } from '../messages';
import { renderFailureText } from '../../src/lib/render-failures';
import { videoErrors, type FailedPost } from '../../src/lib/post-failures';
import type { Database } from '../db/connect';
import type { LinkedPlatforms } from '../../src/lib/schemas';
import { checkedNamesOf, type StoredConnection } from '../platforms/connections';
import { accountGroups, accounts, users, videos } from '../db/schema';
import { reachOf, type StoredReach } from './reach';

/** The wire shapes of profiles and their videos, built from rows, shared by every route that lists them. */

export type AccountRow = typeof accounts.$inferSelect;

/** The columns a profile's summary (a row of the profile lists) is built from. */
export type AccountSummaryRow = Pick<
  AccountRow,
  | 'id'
  | 'proxy'
  | 'ipVersion'
  | 'comments'
  | 'groupId'
  | 'userId'
  | 'isActiveYouTube'
  | 'isActiveTikTok'
  | 'isActiveInstagram'
  | 'inYouTube'
> & {
  /** The names the platforms answered with, from the profile's connections (checkedNamesOf). */
  connectedAs: ConnectedAs;
  /** The platforms whose connection carries a standing failure (recordPlatformFailure). */
  failingPlatforms?: string[];
  /** The platforms the profile is connected to through their consent pages (account_connections), grant standing. */
  linkedPlatforms?: string[];
  /** The platforms SPEC's typed credentials connect (typedPlatformsOf). */
  typedPlatforms?: string[];
  /** The last health check per platform, and the reach marks (checkColumns in server/services/account-list.ts). */
  health?: StoredHealth;
  reach?: StoredReach[];
};
type VideoRow = typeof videos.$inferSelect;

/**
 * YouTube is connected once the OAuth callback stored a refresh token. TikTok and Instagram are
 * connected through their consent pages, or, as SPEC has it, as soon as their credentials are
 * stored: the access string for TikTok, login and password for Instagram.
 */
export function platformConnections(row: AccountSummaryRow) {
  const connected = (platform: string) =>
    (row.linkedPlatforms?.includes(platform) ?? false) || (row.typedPlatforms?.includes(platform) ?? false);
  return { inYouTube: row.inYouTube, inTikTok: connected('tiktok'), inInstagram: connected('instagram') };
}

/**
 * The platforms SPEC counts as connected by typed credentials: a stored TikTok string, an
 * Instagram password with its login. The profile list asks the same in SQL (server/services/account-list.ts).
 */
export function typedPlatformsOf(connections: StoredConnection[]): string[] {
  return connections
    .filter(
      (connection) =>
        connection.accessToken !== null &&
        ((connection.platform === 'tiktok' && connection.method === 'pasted') ||
          (connection.platform === 'instagram' && connection.method === 'login' && connection.remoteName !== null)),
    )
    .map((connection) => connection.platform);
}

/** noactive without platforms; error while a connector's failure stands; success once every active platform is connected. */
export function accountStatus(row: AccountSummaryRow): AccountStatus {
  const connected = platformConnections(row);
  const active = [
    [row.isActiveYouTube, connected.inYouTube],
    [row.isActiveTikTok, connected.inTikTok],
    [row.isActiveInstagram, connected.inInstagram],
  ].filter(([on]) => on);
  if (active.length === 0) return 'noactive';
  if (row.failingPlatforms?.length) return 'error';
  return active.every(([, isConnected]) => isConnected) ? 'success' : 'loading';
}

export function accountOption(row: Pick<AccountRow, 'id' | 'comments' | 'youtubeLogin' | 'instagramLogin'>): SelectOption {
  const label = row.comments || row.youtubeLogin || row.instagramLogin || '';
  return { id: row.id, title: t.accounts.optionTitle(row.id, label), value: row.id };
}

/** A profile as the publish form and a published set offer it: with the platforms it has switched on. */
export function publishProfileOption(
  row: Pick<AccountRow, 'id' | 'comments' | 'youtubeLogin' | 'instagramLogin' | 'isActiveYouTube' | 'isActiveTikTok' | 'isActiveInstagram'>,
): PublishProfileOption {
  const active: [PlatformName, boolean][] = [
    ['youtube', row.isActiveYouTube],
    ['tiktok', row.isActiveTikTok],
    ['instagram', row.isActiveInstagram],
  ];
  return { ...accountOption(row), platforms: active.flatMap(([platform, on]) => (on ? [platform] : [])) };
}

export interface AccountWithOwner<Row = AccountSummaryRow> {
  account: Row;
  ownerLogin: string;
  groupName: string | null;
}

export function toAccountSummary({ account, ownerLogin, groupName }: AccountWithOwner): AccountSummary {
  return {
    id: account.id,
    proxy: account.proxy,
    ipVersion: account.ipVersion,
    comments: account.comments,
    status: accountStatus(account),
    group: account.groupId !== null && groupName !== null ? { id: account.groupId, name: groupName } : null,
    user: { id: account.userId, login: ownerLogin },
    isActiveYouTube: account.isActiveYouTube,
    isActiveTikTok: account.isActiveTikTok,
    isActiveInstagram: account.isActiveInstagram,
    ...platformConnections(account),
    connectedAs: activeConnectedAs(account),
    failedPlatforms: platformOrder.filter((platform) => account.failingPlatforms?.includes(platform)),
    health: healthOf(account.health ?? {}, switchedOn(account)),
    reach: reachOf(account.reach ?? [], switchedOn(account)),
  };
}

/** The rows of profile_health as a profile's summary carries them (checkColumns), keyed by platform. */
export type StoredHealth = Partial<Record<PlatformName, { state: HealthState; reason: HealthReason | null; checkedAt: string }>>;

/** A profile's health for the platforms switched on: a platform switched off keeps its row until the next check, but shows none. */
function healthOf(stored: StoredHealth, active: Record<PlatformName, boolean>): ProfileHealth {
  return Object.fromEntries(
    platformOrder.flatMap((platform) => {
      const entry = stored[platform];
      return entry && active[platform] ? [[platform, { ...entry, checkedAt: new Date(entry.checkedAt).toISOString() }]] : [];
    }),
  );
}

const switchedOn = (account: AccountSummaryRow): Record<PlatformName, boolean> => ({
  youtube: account.isActiveYouTube,
  tiktok: account.isActiveTikTok,
  instagram: account.isActiveInstagram,
});

const platformOrder: PlatformName[] = ['youtube', 'tiktok', 'instagram'];

/** A platform switched off keeps its last answer for when it is switched on again, but shows none. */
function activeConnectedAs(account: AccountSummaryRow): ConnectedAs {
  const active: Record<PlatformName, boolean> = {
    youtube: account.isActiveYouTube && account.inYouTube,
    tiktok: account.isActiveTikTok,
    instagram: account.isActiveInstagram,
  };
  return Object.fromEntries(Object.entries(account.connectedAs).filter(([platform]) => active[platform as PlatformName]));
}

/** Which secrets a profile stores, in its row and its typed connections; their values never leave the server. */
export function savedSecretsOf(account: AccountRow, connections: StoredConnection[]): SavedSecrets {
  const typed = (platform: string, method: string) =>
    connections.some((connection) => connection.platform === platform && connection.method === method && connection.accessToken !== null);
  return {
    proxyPassword: account.proxyPassword !== null,
    YouTubeAuthClientSecret: account.youtubeClientSecret !== null,
    YouTubePassword: account.youtubePassword !== null,
    InstagramPassword: typed('instagram', 'login'),
    InstagramAccessToken: typed('instagram', 'pasted'),
    TikTiokAuthStr: typed('tiktok', 'pasted'),
  };
}

/**
 * What the form shows of a profile's connections: never a token, only how, whom, whether and until
 * when. A consent link, else the pasted TikTok string, whose end the form counts down; Instagram's
 * typed credentials show in their own fields.
 */
export function connectionViews(connections: StoredConnection[]): PlatformConnection[] {
  const linked = new Set(connections.filter((connection) => connection.method === 'oauth').map((connection) => connection.platform));
  return connections
    .filter(
      (connection) =>
        connection.method === 'oauth' || (connection.platform === 'tiktok' && connection.method === 'pasted' && !linked.has('tiktok')),
    )
    .map((connection) => ({
      platform: connection.platform,
      method: connection.method as PlatformConnection['method'],
      state: connection.state,
      name: connection.checkedName,
      expiresAt: connection.method === 'pasted' ? (connection.accessExpiresAt?.toISOString() ?? null) : null,
    }));
}

/** The platforms connected through their consent pages, for the form's rule on a pasted string and a login. */
export function linkedPlatformsOf(connections: StoredConnection[]): LinkedPlatforms {
  return Object.fromEntries(
    connections.filter((connection) => connection.method === 'oauth').map((connection) => [connection.platform, true]),
  );
}

export function toAccountDetail(
  row: AccountWithOwner<AccountRow>,
  video: Paged<VideoSummary>,
  connections: StoredConnection[],
  slots: EffectiveSlots,
  checks: Required<Pick<AccountSummaryRow, 'health' | 'reach'>>,
): AccountDetail {
  const { account } = row;
  const linkedPlatforms = connections
    .filter((connection) => connection.method === 'oauth' && connection.state === 'connected')
    .map((connection) => connection.platform);
  const failing = platformOrder.flatMap((platform) =>
    connections.filter((connection) => connection.platform === platform && connection.failure !== null),
  );
  const summaryRow = {
    ...account,
    connectedAs: checkedNamesOf(connections),
    linkedPlatforms,
    typedPlatforms: typedPlatformsOf(connections),
    failingPlatforms: failing.map((connection) => connection.platform),
    ...checks,
  };
  return {
    ...toAccountSummary({ ...row, account: summaryRow }),
    connections: connectionViews(connections),
    savedSecrets: savedSecretsOf(account, connections),
    YouTubeAuthClientId: account.youtubeClientId ?? '',
    YouTubeAuthClientSecret: '',
    YouTubeLogin: account.youtubeLogin ?? '',
    YouTubePassword: '',
    InstagramLogin: account.instagramLogin ?? '',
    InstagramPassword: '',
    InstagramAccessToken: '',
    InstagramUserId: account.instagramUserId ?? '',
    TikTiokAuthStr: '',
    description: account.description ?? '',
    titleChannel: account.titleChannel ?? '',
    urlChannel: account.urlChannel ?? '',
    urlInstagram: account.urlInstagram ?? '',
    profileNameInstagram: account.profileNameInstagram ?? '',
    profileDescriptionInstagram: account.profileDescriptionInstagram ?? '',
    // The first failing platform's words, as the form has room for one.
    error: failing[0]?.failure ?? null,
    video,
    slots,
  };
}

export function selectAccounts(db: Database) {
  return db.orm
    .select({ account: accounts, ownerLogin: users.login, groupName: accountGroups.name })
    .from(accounts)
    .innerJoin(users, eq(users.id, accounts.userId))
    .leftJoin(accountGroups, eq(accountGroups.id, accounts.groupId))
    .$dynamic();
}

/** The names of the profiles some videos went through, as the profile pickers name them. */
export async function accountTitles(db: Database, ids: (number | null)[]): Promise<Map<number, string>> {
  const wanted = [...new Set(ids.filter((id) => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await db.orm
    .select({ id: accounts.id, comments: accounts.comments, youtubeLogin: accounts.youtubeLogin, instagramLogin: accounts.instagramLogin })
    .from(accounts)
    .where(inArray(accounts.id, wanted));
  return new Map(rows.map((row) => [row.id, accountOption(row).title]));
}

/**
 * A video's failed posts ([{platform, kind, detail}], null when none failed), as a column of a
 * query over `videos`: SPEC's error fields are worded from them (videoErrors).
 */
export const failedPostsColumn = `(SELECT jsonb_agg(jsonb_build_object('platform', p.platform, 'kind', p.failure, 'detail', p.failure_detail))
   FROM video_posts AS p WHERE p.video_id = videos.id AND p.status = 'error' AND p.failure IS NOT NULL)`;

/** A video row with its failed posts (failedPostsColumn). */
export type SummaryRow = VideoRow & { failed: FailedPost[] | null };

export function toVideoSummary(video: SummaryRow, accountTitle?: Map<number, string>): VideoSummary {
  const errors = videoErrors(video.failed);
  const title = video.accountId === null ? undefined : accountTitle?.get(video.accountId);
  return {
    id: video.id,
    // Until a video is scheduled it has no publication date; its creation is the date operators know.
    date: (video.date ?? video.createdAt).toISOString(),
    status: video.status,
    views: video.views,
    likes: video.likes,
    comments: video.comments,
    viewsInstagram: video.viewsInstagram,
    likesInstagram: video.likesInstagram,
    commentsInstagram: video.commentsInstagram,
    viewsTikTok: video.viewsTikTok,
    likesTikTok: video.likesTikTok,
    commentsTikTok: video.commentsTikTok,
    urlYouTube: video.urlYouTube,
    urlInstagram: video.urlInstagram,
    urlTiktok: video.urlTiktok,
    error: errors.error ?? renderFailureText(video.renderFailure, video.renderFailureDetail),
    errorInstagram: errors.errorInstagram,
    account: video.accountId === null ? null : { id: video.accountId, ...(title === undefined ? {} : { title }) },
  };
}
