import { PermanentPlatformError } from '../errors';
import { oauthHost } from '../oauth-links';
import type { ServerPlatform } from '../types';
import { instagramCap, instagramLimit } from './caps';
import { instagram, sandboxInstagramLogin } from './connector';
import { instagramLink } from './oauth';

/**
 * Instagram as the server reaches it: the installation's app through a consent link, or a token
 * pasted on the profile (live), or a login and password against the sandbox, which imitates the
 * login SPEC describes; the live Graph API has no login by password.
 */
export const instagramPlatform: ServerPlatform = {
  connector: instagram,
  link: instagramLink,
  apiHost: 'graph.facebook.com',
  whoAmI: (ctx) => instagram.fetchProfile(ctx),
  accountName: (info) => info.name || info.id,
  refreshRotates: true,
  // The long-lived token's 60 days.
  endingNoticeDays: 7,
  cap: (account, _settings, live) => live && instagramCap(account, live),
  readLiveCap: (key, context) => instagramLimit(key, async () => instagram.publishingLimit(await context())),
  // Graph calls are limited per account and hour.
  readQuota: (account, settings, now) => ({
    holder: `instagram:${account.instagramUserId ?? account.instagramLogin ?? `profile-${account.id}`}`,
    period: now.toISOString().slice(0, 13),
    limit: settings.instagramCallsPerHour,
  }),
  // Each operation of a Graph batch counts as a call.
  statsReadUnits: (posts) => posts,
  credentials: {
    // A token of Instagram Login is for graph.instagram.com, which serves the same content publishing calls.
    linked: (base, credentials, link, access) => ({
      ...base,
      endpoints: { ...base.endpoints, 'graph.facebook.com': oauthHost(access.mode, access.sandboxOrigin, 'graph.instagram.com') },
      credentials: { ...credentials, igUserId: link.remoteId! },
    }),
    typed: {
      method: (mode) => (mode === 'sandbox' ? 'login' : 'pasted'),
      ready: (connection) => (connection.method === 'login' ? connection.remoteName !== null : connection.remoteId !== null),
      countsAsConnected: (connection) => connection.method === 'login' && connection.remoteName !== null,
      pastedEnds: false,
      context: async (base, method, connection, secret) => {
        if (method === 'login') {
          if (!connection?.remoteName || !secret) throw new PermanentPlatformError('instagram', 'not_connected', '');
          return {
            ...base,
            credentials: await sandboxInstagramLogin(base.network, base.proxy, base.endpoints, connection.remoteName, secret),
          };
        }
        if (!secret || !connection?.remoteId) throw new PermanentPlatformError('instagram', 'instagram_token_missing', '');
        return { ...base, credentials: { accessToken: secret, igUserId: connection.remoteId } };
      },
    },
  },
};
