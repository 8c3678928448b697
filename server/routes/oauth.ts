import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { eq } from 'drizzle-orm';
import { t } from '../../src/lib/i18n';
import { youtubeConnectionParams } from '../../src/lib/youtube-connection';
import type { PlatformsMode } from '../platforms/types';
import { accounts } from '../db/schema';
import { proxyOfAccount, secretsOfRow } from '../auth/secrets';
import { PlatformNetworkError } from '../platforms/http';
import {
  exchangeAuthorizationCode,
  googleOAuthEndpoints,
  GoogleTokenError,
  readYouTubeState,
  youtubeRedirectUri,
} from '../platforms/youtube-oauth';

export interface OAuthSettings {
  platforms: PlatformsMode;
  /** PUBLIC_URL; unset, the address the request came to. */
  publicUrl: string | undefined;
}

/** Where browsers and Google reach this server: PUBLIC_URL, else the host this request was sent to. */
export function baseUrlOf(request: FastifyRequest, settings: OAuthSettings): string {
  return settings.publicUrl ?? `${request.protocol}://${request.host}`;
}

/**
 * The browser arrives here from Google's consent page, without a Bearer token: the signed
 * `state` is what names the profile. Every outcome ends on the profile's page in the SPA.
 */
export const oauthRoutes: FastifyPluginAsync<{ oauth: OAuthSettings }> = async (app, { oauth }) => {
  const { db, keys } = app;

  app.get('/youtube/callback', async (request, reply) => {
    const query = request.query as Record<string, string | undefined>;
    const accountId = query.state ? await readYouTubeState(keys.oauthState, query.state) : null;
    const failWith = (message: string, path = `/accounts/${accountId}`) =>
      reply.redirect(`${path}?${new URLSearchParams({ [youtubeConnectionParams.error]: message })}`, 302);

    if (accountId === null) return failWith(t.youtubeOauth.linkExpired, '/accounts/list');
    const [account] = await db.orm.select().from(accounts).where(eq(accounts.id, accountId));
    if (!account) return failWith(t.server.notFound, '/accounts/list');
    if (query.error || !query.code) return failWith(t.youtubeOauth.denied);
    if (!account.youtubeClientId || !account.youtubeClientSecret) return failWith(t.youtubeOauth.notReady);

    const secrets = secretsOfRow(keys.secretsAtRest, 'accounts', account.id);
    const baseUrl = baseUrlOf(request, oauth);
    let refreshToken: string | undefined;
    try {
      const tokens = await exchangeAuthorizationCode(
        {
          proxy: proxyOfAccount(keys.secretsAtRest, account),
          tokenUrl: googleOAuthEndpoints(oauth.platforms, baseUrl).token,
          clientId: account.youtubeClientId,
          clientSecret: secrets.open('youtube_client_secret', account.youtubeClientSecret)!,
        },
        query.code,
        youtubeRedirectUri(baseUrl),
      );
      refreshToken = tokens.refreshToken;
    } catch (error) {
      if (error instanceof PlatformNetworkError) return failWith(error.message);
      if (error instanceof GoogleTokenError) return failWith(`${t.youtubeOauth.exchangeFailed}: ${error.message}`);
      throw error;
    }
    if (!refreshToken) return failWith(t.youtubeOauth.noRefreshToken);

    await db.orm
      .update(accounts)
      .set({
        youtubeRefreshToken: secrets.seal('youtube_refresh_token', refreshToken),
        inYouTube: true,
        updatedAt: new Date(),
      })
      .where(eq(accounts.id, account.id));
    request.log.info({ accountId: account.id }, 'YouTube connected');
    return reply.redirect(`/accounts/${account.id}?${youtubeConnectionParams.connected}=connected`, 302);
  });
};
