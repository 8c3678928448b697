import { eq } from 'drizzle-orm';
import type {
  AccountDetail,
  AccountStatus,
  AccountSummary,
  Paged,
  SelectOption,
  VideoSummary,
} from '../../src/lib/contract';
import { t } from '../../src/lib/i18n';
import type { Database } from '../db/connect';
import { accountGroups, accounts, users, videos } from '../db/schema';
import { SecretUnreadableError, secretsOfRow } from '../auth/secrets';
import { HttpError } from '../http-error';

/** The wire shapes of profiles and their videos, built from rows, shared by every route that lists them. */

export type AccountRow = typeof accounts.$inferSelect;
type VideoRow = typeof videos.$inferSelect;

/**
 * YouTube is connected once the OAuth callback stored a refresh token. TikTok and Instagram have
 * no OAuth flow in this product (yet): a profile counts as connected to them as soon as their
 * credentials are stored, the access string for TikTok, login and password for Instagram.
 */
export function platformConnections(row: AccountRow) {
  return {
    inYouTube: row.inYouTube,
    inTikTok: row.tiktokAuthStr !== null,
    inInstagram: row.instagramLogin !== null && row.instagramPassword !== null,
  };
}

/** noactive without platforms; error while a connector's failure stands; success once every active platform is connected. */
export function accountStatus(row: AccountRow): AccountStatus {
  const connected = platformConnections(row);
  const active = [
    [row.isActiveYouTube, connected.inYouTube],
    [row.isActiveTikTok, connected.inTikTok],
    [row.isActiveInstagram, connected.inInstagram],
  ].filter(([on]) => on);
  if (active.length === 0) return 'noactive';
  if (row.platformError) return 'error';
  return active.every(([, isConnected]) => isConnected) ? 'success' : 'loading';
}

export function accountOption(row: Pick<AccountRow, 'id' | 'comments' | 'youtubeLogin' | 'instagramLogin'>): SelectOption {
  const label = row.comments || row.youtubeLogin || row.instagramLogin || '';
  return { id: row.id, title: t.accounts.optionTitle(row.id, label), value: row.id };
}

export interface AccountWithOwner {
  account: AccountRow;
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
  };
}

export function toAccountDetail(row: AccountWithOwner, secretsKey: Buffer, video: Paged<VideoSummary>): AccountDetail {
  const { account } = row;
  const secrets = secretsOfRow(secretsKey, 'accounts', account.id);
  const open = (column: string, stored: string | null) => {
    try {
      return secrets.open(column, stored) ?? '';
    } catch (error) {
      if (error instanceof SecretUnreadableError) throw new HttpError(500, t.accountForm.secretsUnreadable);
      throw error;
    }
  };
  return {
    ...toAccountSummary(row),
    YouTubeAuthClientId: account.youtubeClientId ?? '',
    YouTubeAuthClientSecret: open('youtube_client_secret', account.youtubeClientSecret),
    YouTubeLogin: account.youtubeLogin ?? '',
    YouTubePassword: open('youtube_password', account.youtubePassword),
    InstagramLogin: account.instagramLogin ?? '',
    InstagramPassword: open('instagram_password', account.instagramPassword),
    InstagramAccessToken: open('instagram_access_token', account.instagramAccessToken),
    InstagramUserId: account.instagramUserId ?? '',
    TikTiokAuthStr: open('tiktok_auth_str', account.tiktokAuthStr),
    description: account.description ?? '',
    titleChannel: account.titleChannel ?? '',
    urlChannel: account.urlChannel ?? '',
    urlInstagram: account.urlInstagram ?? '',
    profileNameInstagram: account.profileNameInstagram ?? '',
    profileDescriptionInstagram: account.profileDescriptionInstagram ?? '',
    error: account.platformError,
    video,
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

export function toVideoSummary(video: VideoRow): VideoSummary {
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
    urlYouTube: video.urlYouTube,
    urlInstagram: video.urlInstagram,
    error: video.error,
    errorInstagram: video.errorInstagram,
    account: video.accountId === null ? null : { id: video.accountId },
  };
}
