import { and, eq } from 'drizzle-orm';
import type {
  AccountDetail,
  AccountStatus,
  AccountSummary,
  ConnectedAs,
  ConnectionKind,
  ConnectionSource,
  ConnectionState,
  EffectiveSlots,
  Paged,
  PlatformConnection,
  PlatformName,
  ProfileHealth,
  PublishProfileOption,
  SavedSecrets,
  SelectOption,
  SessionUser,
  VideoPost,
  VideoSummary,
} from '../../../src/lib/contract';
import { t } from '../../messages';
import { visibleTo } from '../../auth/ownership';
import { renderFailureText } from '../../../src/lib/render-failures';
import { videoErrorsOf } from '../../../src/lib/post-failures';
import type { Database } from '../../db/connect';
import type { LinkedPlatforms } from '../../../src/lib/schemas';
import { checkedNamesOf, type StoredConnection } from '../../platforms/connections';
import { accountGroups, accounts, users, videos } from '../../db/schema';
import { reachOf, type StoredReach } from '../statistics/reach';
import { serverPlatforms } from '../../platforms/registry';
import { platformIds, platformOf, platforms, platformValues, type PlatformFieldName } from '../../../src/lib/platforms';

/** The wire shapes of profiles and their videos, built from rows, shared by every route that lists them. */

export type AccountRow = typeof accounts.$inferSelect;

/** The columns a profile's summary (a row of the profile lists) is built from. */
export type AccountSummaryRow = Pick<
  AccountRow,
  'id' | 'proxy' | 'ipVersion' | 'comments' | 'groupId' | 'userId' | PlatformFieldName<'switchedOn'> | 'inYouTube'
> & {
  /** The names the platforms answered with, from the profile's connections (checkedNamesOf). */
  connectedAs: ConnectedAs;
  /** The platforms the profile is connected to through their consent pages (account_connections), grant standing. */
  linkedPlatforms?: string[];
  /** The platforms SPEC's typed credentials connect (typedPlatformsOf). */
  typedPlatforms?: string[];
  /** Each connection's one state, and the reach marks (checkColumns in server/services/lists/account-list.ts). */
  health?: StoredStates;
  reach?: StoredReach[];
};
type VideoRow = typeof videos.$inferSelect;

/** Each platform's switch as a column to select (`isActiveYouTube: accounts.isActiveYouTube`…). */
export const switchedOnColumns = Object.fromEntries(
  platforms.map((platform) => [platform.fields.switchedOn, accounts[platform.fields.switchedOn]]),
) as { [F in PlatformFieldName<'switchedOn'>]: (typeof accounts)[F] };

/**
 * YouTube is connected once the OAuth callback stored a refresh token. TikTok and Instagram are
 * connected through their consent pages, or, as SPEC has it, as soon as their credentials are
 * stored: the access string for TikTok, login and password for Instagram.
 */
export function platformConnections(row: AccountSummaryRow): Record<PlatformFieldName<'ticked'>, boolean> {
  return Object.fromEntries(platforms.map((platform) => [platform.fields.ticked, isConnected(row, platform.id)])) as Record<
    PlatformFieldName<'ticked'>,
    boolean
  >;
}

function isConnected(row: AccountSummaryRow, platform: PlatformName): boolean {
  // A profile's own OAuth client (YouTube's) is connected once its callback stored a refresh token.
  if (platformOf(platform).consent === 'profile-client') return row.inYouTube;
  return (row.linkedPlatforms?.includes(platform) ?? false) || (row.typedPlatforms?.includes(platform) ?? false);
}

/**
 * The platforms SPEC counts as connected by typed credentials: a stored TikTok string, an
 * Instagram password with its login. The profile list asks the same in SQL (server/services/lists/account-list.ts).
 */
export function typedPlatformsOf(connections: StoredConnection[]): string[] {
  return connections
    .filter(
      (connection) =>
        connection.accessToken !== null &&
        connection.method !== 'oauth' &&
        (serverPlatforms[connection.platform].credentials.typed?.countsAsConnected(connection) ?? false),
    )
    .map((connection) => connection.platform);
}

/** noactive without platforms; error while a platform switched on is 'down'; success once every active platform is connected. */
export function accountStatus(row: AccountSummaryRow): AccountStatus {
  const active = platformIds.filter((platform) => row[platformOf(platform).fields.switchedOn]);
  if (active.length === 0) return 'noactive';
  if (downPlatforms(connectionStatesOf(row)).length > 0) return 'error';
  return active.every((platform) => isConnected(row, platform)) ? 'success' : 'loading';
}

export function accountOption(row: Pick<AccountRow, 'id' | 'comments' | 'youtubeLogin' | 'instagramLogin'>): SelectOption {
  const label = row.comments || row.youtubeLogin || row.instagramLogin || '';
  return { id: row.id, title: t.accounts.optionTitle(row.id, label), value: row.id };
}

/** A profile as the publish form and a published set offer it: with the platforms it has switched on. */
export function publishProfileOption(
  row: Pick<AccountRow, 'id' | 'comments' | 'youtubeLogin' | 'instagramLogin' | PlatformFieldName<'switchedOn'>>,
): PublishProfileOption {
  return { ...accountOption(row), platforms: platformIds.filter((platform) => row[platformOf(platform).fields.switchedOn]) };
}

export interface AccountWithOwner<Row = AccountSummaryRow> {
  account: Row;
  ownerLogin: string;
  groupName: string | null;
}

export function toAccountSummary({ account, ownerLogin, groupName }: AccountWithOwner): AccountSummary {
  const health = connectionStatesOf(account);
  return {
    id: account.id,
    proxy: account.proxy,
    ipVersion: account.ipVersion,
    comments: account.comments,
    status: accountStatus(account),
    group: account.groupId !== null && groupName !== null ? { id: account.groupId, name: groupName } : null,
    user: { id: account.userId, login: ownerLogin },
    ...platformValues(account, 'switchedOn'),
    ...platformConnections(account),
    connectedAs: activeConnectedAs(account, health),
    failedPlatforms: downPlatforms(health),
    health,
    reach: reachOf(account.reach ?? [], switchedOn(account)),
  };
}

/** The rows of connection_states as a profile's summary carries them (checkColumns), keyed by platform. */
export type StoredStates = Partial<
  Record<PlatformName, { state: ConnectionState; kind: ConnectionKind | null; source: ConnectionSource; detail: string | null; at: string }>
>;

/**
 * The one place that says what a profile's platforms are shown as: each platform switched on with
 * its connection's one state, whichever path learnt it last (recordConnection). The list's platform
 * columns, its 'Стан', the profile's status, its page's header and sections, and home read this;
 * the 'Проблемні' filter asks the same in SQL (server/services/lists/account-list.ts). A platform
 * switched off keeps its state for when it is switched on again, but shows none.
 */
export function connectionStatesOf(row: AccountSummaryRow): ProfileHealth {
  const active = switchedOn(row);
  return Object.fromEntries(
    platformIds.flatMap((platform) => {
      const entry = row.health?.[platform];
      return entry && active[platform] ? [[platform, { ...entry, at: new Date(entry.at).toISOString() }]] : [];
    }),
  );
}

/** The platforms that cannot work until something changes: the profile's error, home's attention. */
function downPlatforms(health: ProfileHealth): PlatformName[] {
  return platformIds.filter((platform) => health[platform]?.state === 'down');
}

const switchedOn = (account: AccountSummaryRow): Record<PlatformName, boolean> =>
  Object.fromEntries(platformIds.map((platform) => [platform, account[platformOf(platform).fields.switchedOn]])) as Record<
    PlatformName,
    boolean
  >;

/**
 * A platform switched off keeps its last answer for when it is switched on again, but shows none;
 * nor does one whose connection is 'down': it is no longer connected as anyone.
 */
function activeConnectedAs(account: AccountSummaryRow, health: ProfileHealth): ConnectedAs {
  // A profile's own OAuth client (YouTube's) connects nothing until its channel was connected.
  const active = (platform: PlatformName) =>
    account[platformOf(platform).fields.switchedOn] && (platformOf(platform).consent !== 'profile-client' || account.inYouTube);
  return Object.fromEntries(
    Object.entries(account.connectedAs).filter(
      ([platform]) => active(platform as PlatformName) && health[platform as PlatformName]?.state !== 'down',
    ),
  );
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
 * What the form's platform sections show: never a token, only how, whom, in which state and until
 * when, for the connection in use on each platform (the consent link, else a typed credential, as
 * recordCheckedName picks it), in the state the header shows (connectionStatesOf). A platform
 * nothing has learnt about yet is taken as its credentials say: connected, unless its grant is gone.
 */
export function connectionViews(connections: StoredConnection[], health: ProfileHealth): PlatformConnection[] {
  const inUse = [...connections]
    .filter((connection) => connection.method === 'oauth' || connection.accessToken !== null)
    .sort((a, b) => Number(b.method === 'oauth') - Number(a.method === 'oauth') || a.method.localeCompare(b.method));
  return platformIds.flatMap((platform) => {
    const connection = inUse.find((candidate) => candidate.platform === platform);
    if (!connection) return [];
    const known = health[platform];
    const grantGone = connection.state === 'revoked';
    return [
      {
        platform,
        method: connection.method,
        state: known?.state ?? (grantGone ? 'down' : 'connected'),
        kind: known?.kind ?? (grantGone ? 'revoked' : null),
        name: connection.checkedName,
        expiresAt:
          connection.method === 'pasted' && (serverPlatforms[platform].credentials.typed?.pastedEnds ?? false)
            ? (connection.accessExpiresAt?.toISOString() ?? null)
            : null,
      },
    ];
  });
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
  const summaryRow = {
    ...account,
    connectedAs: checkedNamesOf(connections),
    linkedPlatforms,
    typedPlatforms: typedPlatformsOf(connections),
    ...checks,
  };
  const summary = toAccountSummary({ ...row, account: summaryRow });
  return {
    ...summary,
    connections: connectionViews(connections, summary.health),
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
    // The first platform down, in the catalog's words, as the form has room for one.
    error: failureText(summary),
    video,
    slots,
  };
}

/** 'TikTok: Не працює: доступ відкликано — підключіть профіль знову (the platform's words)', for the first platform down. */
function failureText({ health, failedPlatforms }: AccountSummary): string | null {
  const platform = failedPlatforms[0];
  const entry = platform && health[platform];
  if (!platform || !entry?.kind) return null;
  const words = t.health.platformState(
    t.platform.names[platform],
    t.health.stateWithReason(t.health.states.down, t.health.kinds[entry.kind]),
  );
  return entry.detail ? `${words} (${entry.detail})` : words;
}

/** Profile `id` with its owner's login and its group's name, as its page shows it, when the user sees it; undefined otherwise. */
export async function visibleAccountView(db: Database, user: SessionUser, id: number) {
  const [row] = await db.orm
    .select({ account: accounts, ownerLogin: users.login, groupName: accountGroups.name })
    .from(accounts)
    .innerJoin(users, eq(users.id, accounts.userId))
    .leftJoin(accountGroups, eq(accountGroups.id, accounts.groupId))
    .where(and(eq(accounts.id, id), visibleTo(user, accounts.userId)));
  return row;
}

/**
 * A video's failed posts ([{platform, kind, detail}], null when none failed), as a column of a
 * query over `videos`: SPEC's error fields are worded from them (videoErrors).
 */
export const failedPostsColumn = `(SELECT jsonb_agg(jsonb_build_object('platform', p.platform, 'kind', p.failure, 'detail', p.failure_detail))
   FROM video_posts AS p WHERE p.video_id = videos.id AND p.status = 'error' AND p.failure IS NOT NULL)`;

/** A video as every video list answers it, with its posts (services/publishing/video-status.ts, postsOfVideos), SPEC's error fields worded from them. */
export function toVideoSummary(video: VideoRow, posts: VideoPost[], accountTitle?: Map<number, string>): VideoSummary {
  const errors = videoErrorsOf(posts);
  const title = video.accountId === null ? undefined : accountTitle?.get(video.accountId);
  return {
    id: video.id,
    // Until a video is scheduled it has no publication date; its creation is the date operators know.
    date: (video.date ?? video.createdAt).toISOString(),
    status: video.status,
    ...platformValues(video, 'views'),
    ...platformValues(video, 'likes'),
    ...platformValues(video, 'comments'),
    ...platformValues(video, 'url'),
    ...errors,
    error: errors.error ?? renderFailureText(video.renderFailure, video.renderFailureDetail),
    account: video.accountId === null ? null : { id: video.accountId, ...(title === undefined ? {} : { title }) },
    posts,
  };
}
