import { PermanentPlatformError } from '../errors';
import type { ServerPlatform } from '../types';
import { tiktokCap } from './caps';
import { tiktok } from './connector';
import { tiktokLink } from './oauth';

/** TikTok as the server reaches it: the installation's app through a consent link, or an access string pasted on the profile. */
export const tiktokPlatform: ServerPlatform = {
  connector: tiktok,
  link: tiktokLink,
  apiHost: 'open.tiktokapis.com',
  whoAmI: (ctx) => tiktok.fetchCreator(ctx),
  // The creator's nickname with the handle, as TikTok shows them.
  accountName: (info) => (info.id && info.name !== info.id ? `${info.name} (@${info.id})` : info.id ? `@${info.id}` : info.name),
  refreshRotates: true,
  // The refresh token's 180 days.
  endingNoticeDays: 14,
  cap: (account, settings) => tiktokCap(account, settings),
  // video/query is limited per token and minute.
  readQuota: (account, settings, now) => ({
    holder: `tiktok:profile-${account.id}`,
    period: now.toISOString().slice(0, 16),
    limit: settings.tiktokQueriesPerMinute,
  }),
  statsReadUnits: () => 1,
  credentials: {
    linked: (base, credentials) => ({ ...base, credentials }),
    typed: {
      method: () => 'pasted',
      ready: () => true,
      countsAsConnected: (connection) => connection.method === 'pasted',
      pastedEnds: true,
      context: async (base, _method, _connection, secret) => {
        if (!secret) throw new PermanentPlatformError('tiktok', 'not_connected', '');
        return { ...base, credentials: { accessToken: secret } };
      },
    },
  },
};
