import type { ServerPlatform } from '../types';
import { youtubeCap } from './caps';
import { youtube } from './connector';
import { youtubeLink } from './oauth';

// Made once: a formatter costs far more to build than to use, and every read's quota asks for the day.
const pacificDate = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Los_Angeles' });

/** YouTube as the server reaches it: the channel through the profile's own Google OAuth client. */
export const youtubePlatform: ServerPlatform = {
  connector: youtube,
  link: youtubeLink,
  apiHost: 'www.googleapis.com',
  whoAmI: (ctx) => youtube.fetchChannel(ctx),
  accountName: (info) => info.name || info.id,
  refreshRotates: false,
  // Google's refresh token where it ends at all (an app in testing: 7 days from consent): 14 days
  // ahead would warn at consent, and 2 leave the operator a working day (or a weekend) to consent again.
  endingNoticeDays: 2,
  cap: (account, settings) => youtubeCap(account, settings),
  // The Google project of the profile's OAuth client holds the quota, so profiles sharing a client share it.
  readQuota: (account, settings, now) => ({
    holder: `youtube:${account.youtubeClientId ?? `profile-${account.id}`}`,
    period: pacificDate.format(now),
    limit: settings.youtubeDailyUnits - settings.youtubePublishReserve,
  }),
  // videos.list costs one unit a call, for up to 50 ids.
  statsReadUnits: () => 1,
  credentials: {
    // Reached through its consent link alone, once the channel was connected.
    linkUsable: (account) => account.inYouTube,
    linked: (base, credentials) => ({ ...base, credentials }),
  },
};
