import type { FastifyPluginAsync } from 'fastify';
import { and, eq, or, sql } from 'drizzle-orm';
import { checkConnections } from '../services/connection-check';
import { t } from '../../src/lib/i18n';
import { youtubeConnectionParams } from '../../src/lib/youtube-connection';
import type { PlatformsMode } from '../platforms/types';
import { accounts, users } from '../db/schema';
import { proxyOfAccount, secretsOfRow } from '../auth/secrets';
import { PlatformNetworkError } from '../platforms/http';
import {
  consumeYouTubeState,
  exchangeAuthorizationCode,
  googleOAuthEndpoints,
  GoogleTokenError,
  youtubeRedirectUri,
} from '../platforms/youtube-oauth';
import { oauthSchemas } from './schemas/oauth';

export interface OAuthSettings {
  platforms: PlatformsMode;
  /** PUBLIC_URL: where browsers and Google reach this server; read per request, as the sandbox default is known once it listens. */
  publicUrl: () => string;
  /** Where this server itself reaches the platforms' OAuth endpoints (the sandbox's SANDBOX_ORIGIN, or Google). */
  platformsOrigin: () => string;
}

/**
 * The browser arrives here from Google's consent page, without a Bearer token: the single-use
 * `state` is what names the profile and the user who asked. Every outcome ends on the profile's page in the SPA.
 */
export const oauthRoutes: FastifyPluginAsync<{ oauth: OAuthSettings }> = async (app, { oauth }) => {
  const { db, keys } = app;

  /**
   * Which channel the grant reaches, for the profile's "підключено як …". The connection stands
   * without it: a channel that does not answer now is asked again at the profile's next save.
   */
  async function recordChannel(account: typeof accounts.$inferSelect) {
    try {
      const settings = { mode: oauth.platforms, sandboxOrigin: oauth.platformsOrigin() };
      const { connectedAs } = await checkConnections(account, ['youtube'], keys.secretsAtRest, settings);
      if (!connectedAs.youtube) return;
      await db.orm
        .update(accounts)
        .set({ connectedAs: sql`${accounts.connectedAs} || ${JSON.stringify(connectedAs)}::jsonb` })
        .where(eq(accounts.id, account.id));
    } catch (error) {
      app.log.warn({ accountId: account.id, err: error }, 'the connected YouTube channel did not answer');
    }
  }

  app.get('/youtube/callback', { schema: oauthSchemas.youtubeCallback }, async (request, reply) => {
    const query = request.query as Record<string, string | undefined>;
    const issued = query.state ? await consumeYouTubeState(db, query.state) : null;
    const failWith = (message: string, path = `/accounts/${issued?.accountId}`) =>
      reply.redirect(`${path}?${new URLSearchParams({ [youtubeConnectionParams.error]: message })}`, 302);

    if (issued === null) return failWith(t.youtubeOauth.linkExpired, '/accounts/list');
    // The user who asked for the link must still exist and still see the profile.
    const [account] = await db.orm
      .select({ account: accounts })
      .from(accounts)
      .innerJoin(users, eq(users.id, issued.userId))
      .where(and(eq(accounts.id, issued.accountId), or(eq(users.role, 'admin'), eq(accounts.userId, users.id))))
      .then((rows) => rows.map((row) => row.account));
    if (!account) return failWith(t.server.notFound, '/accounts/list');
    if (query.error || !query.code) return failWith(t.youtubeOauth.denied);
    if (!account.youtubeClientId || !account.youtubeClientSecret) return failWith(t.youtubeOauth.notReady);

    const secrets = secretsOfRow(keys.secretsAtRest, 'accounts', account.id);
    let refreshToken: string | undefined;
    try {
      const tokens = await exchangeAuthorizationCode(
        {
          proxy: proxyOfAccount(keys.secretsAtRest, account),
          tokenUrl: googleOAuthEndpoints(oauth.platforms, oauth.platformsOrigin()).token,
          clientId: account.youtubeClientId,
          clientSecret: secrets.open('youtube_client_secret', account.youtubeClientSecret)!,
        },
        query.code,
        youtubeRedirectUri(oauth.publicUrl()),
      );
      refreshToken = tokens.refreshToken;
    } catch (error) {
      if (error instanceof PlatformNetworkError) return failWith(error.message);
      if (error instanceof GoogleTokenError) return failWith(`${t.youtubeOauth.exchangeFailed}: ${error.message}`);
      throw error;
    }
    if (!refreshToken) return failWith(t.youtubeOauth.noRefreshToken);

    const connected = { youtubeRefreshToken: secrets.seal('youtube_refresh_token', refreshToken), inYouTube: true };
    await db.orm
      .update(accounts)
      .set({ ...connected, updatedAt: new Date() })
      .where(eq(accounts.id, account.id));
    request.log.info({ accountId: account.id }, 'YouTube connected');
    await recordChannel({ ...account, ...connected });
    return reply.redirect(`/accounts/${account.id}?${youtubeConnectionParams.connected}=connected`, 302);
  });
};
