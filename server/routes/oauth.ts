import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { checkConnections } from '../services/profiles/connection-check';
import { profileRowById, profileSeenBy, setProfileColumns, type ProfileRow } from '../services/profiles/profile-rows';
import { t } from '../messages';
import { youtubeConnectionParams } from '../../src/lib/youtube-connection';
import type { Platform, PlatformsMode } from '../platforms/types';
import { proxyOfAccount, secretsOfRow } from '../auth/secrets';
import { PlatformNetworkError, type PlatformNetwork } from '../net/http';
import { consumeOAuthState, openOAuthState, type SpentState } from '../platforms/oauth-state';
import { consentCookieCleared, consentCookieFor, isBoundToBrowser, isLinkSigned } from '../platforms/consent-cookie';
import { resumeWaitingPosts } from '../services/publishing/post-lifecycle';
import { recordCheckedName, saveGrantedConnection, appVariables } from '../platforms/connections';
import { linkConnectors } from '../platforms/registry';
import { builtInApps, linkRedirectUri, OAuthGrantError, type GrantedTokens, type PlatformApps } from '../platforms/oauth-links';
import { connectionParams } from '../../src/lib/youtube-connection';
import { googleOAuthEndpoints, testingRefreshTokenSeconds, youtubeConsentUrl, youtubeRedirectUri } from '../platforms/youtube/oauth';
import { oauthSchemas } from '../../src/lib/contract/oauth';
import { consentPlatformIds, platformOf } from '../../src/lib/platforms';
import type { Clock } from '../clock';

export interface OAuthSettings {
  platforms: PlatformsMode;
  /** PUBLIC_URL: where browsers and Google reach this server; read per request, as the sandbox default is known once it listens. */
  publicUrl: () => string;
  /** Where this server itself reaches the platforms' OAuth endpoints (the sandbox's SANDBOX_ORIGIN, or Google). */
  platformsOrigin: () => string;
  /** The installation's TikTok and Instagram apps; the mode's defaults when absent. */
  apps?: PlatformApps;
  /** YOUTUBE_APP_IN_TESTING=1: the profiles' Google clients are in "Testing", so their refresh tokens end 7 days after consent. */
  youtubeAppInTesting?: boolean;
  network: PlatformNetwork;
  clock: Clock;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/** Where a consent flow that stops short of the SPA ends: a plain page in Ukrainian, with the way back. */
function stoppedPage(reply: FastifyReply, status: number, message: string) {
  const { title, home } = t.consentPage;
  return reply
    .status(status)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(
      `<!doctype html>
<html lang="uk"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f1f5f9;color:#0f172a}main{max-width:32rem;margin:3rem auto;padding:2rem;background:#fff;border-radius:12px}h1{font-size:1.25rem}a{color:#1d4ed8}</style>
</head><body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p><p><a href="/">${escapeHtml(home)}</a></p></main></body></html>`,
    );
}

/** The page a callback sends another browser's code to: its own address keeps no code. */
const anotherBrowserPath = '/api/oauth/another-browser';

/**
 * The browser arrives here from the platform's consent page, without a Bearer token: the single-use
 * `state` is what names the profile and the user who asked, the flow's cookie shows it is the
 * browser that started it, and the PKCE verifier redeems the code, so a code issued to another flow
 * is refused. Every outcome ends on the profile's page in the SPA but another browser's, which ends
 * on a page of its own.
 */
export const oauthRoutes: FastifyPluginAsyncTypebox<{ oauth: OAuthSettings }> = async (app, { oauth }) => {
  const { db, keys } = app;

  /**
   * Whether the browser of a callback whose state was just spent is the one its flow was bound to
   * (consent-cookie.ts). Either way the flow's cookie is taken back: the state is spent, and a code
   * that came with it is no use to anyone now.
   */
  function startedHere(request: FastifyRequest, reply: FastifyReply, state: string, callbackUrl: string) {
    reply.header('set-cookie', consentCookieCleared(state, callbackUrl));
    return isBoundToBrowser(keys.consentCookie, state, request.headers.cookie);
  }

  app.get('/another-browser', { schema: oauthSchemas.anotherBrowser }, async (_request, reply) =>
    stoppedPage(reply, 403, t.consentPage.anotherBrowser),
  );

  /**
   * YouTube's consent link (connect-youtube in routes/accounts.ts). It may be copied to the
   * channel's owner on another computer, so the flow is bound to the browser that opens it rather
   * than the one that made it; then on to Google. Only a signed link binds, so a state read from a
   * callback's address cannot be opened here to bind another browser.
   */
  app.get('/youtube/start', { schema: oauthSchemas.youtubeStart }, async (request, reply) => {
    const { state, sig } = request.query;
    const flow = isLinkSigned(keys.consentCookie, state, sig) ? await openOAuthState(db, 'youtube', state, oauth.clock.now()) : null;
    if (!flow) return stoppedPage(reply, 400, t.youtubeOauth.linkExpired);
    const account = await profileRowById(db, flow.accountId);
    if (!account?.youtubeClientId) return stoppedPage(reply, 400, t.youtubeOauth.notReady);
    const publicUrl = oauth.publicUrl();
    const redirectUri = youtubeRedirectUri(publicUrl);
    reply.header('set-cookie', consentCookieFor(keys.consentCookie, state, redirectUri));
    const consent = youtubeConsentUrl(googleOAuthEndpoints(oauth.platforms, publicUrl), {
      clientId: account.youtubeClientId,
      redirectUri,
      state,
      codeChallenge: flow.codeChallenge,
    });
    return reply.redirect(consent, 302);
  });

  /**
   * Which channel the grant reaches, for the profile's "підключено як …". The connection stands
   * without it: a channel that does not answer now is asked again at the profile's next save.
   */
  async function recordChannel(account: ProfileRow, platform: Platform = 'youtube') {
    try {
      const settings = {
        mode: oauth.platforms,
        sandboxOrigin: oauth.platformsOrigin(),
        apps: oauth.apps,
        network: oauth.network,
        clock: oauth.clock,
      };
      const { connectedAs, refused, unreachable } = await checkConnections(account, [platform], keys.secretsAtRest, settings, db);
      const name = connectedAs[platform];
      if (!name)
        return app.log.warn(
          { accountId: account.id, platform, refused: refused.map((error) => error.message), unreachable },
          'the connected account gave no name',
        );
      await recordCheckedName(db.sql, account.id, platform, name);
    } catch (error) {
      app.log.warn({ accountId: account.id, platform, err: error }, 'the connected account did not answer');
    }
  }

  /** The posts that waited for the profile to be connected again go out. */
  async function resumeWaiting(accountId: number, platform: Platform) {
    if (!app.queue) return;
    const resumed = await resumeWaitingPosts(db, app.queue, accountId, platform, new Date(app.clock.now()));
    if (resumed > 0) app.log.info({ accountId, platform, resumed }, 'posts that waited for the connection go out');
  }

  /** The profile a spent `state` names, while the user who asked for the link still exists and still sees it. */
  const issuedAccount = (issued: SpentState) => profileSeenBy(db, issued.accountId, issued.userId);

  app.get('/youtube/callback', { schema: oauthSchemas.youtubeCallback }, async (request, reply) => {
    const { query } = request;
    const issued = query.state ? await consumeOAuthState(db, 'youtube', query.state, oauth.clock.now()) : null;
    const failWith = (message: string, path = `/accounts/${issued?.accountId}`) =>
      reply.redirect(`${path}?${new URLSearchParams({ [youtubeConnectionParams.error]: message })}`, 302);

    if (issued === null) return failWith(t.youtubeOauth.linkExpired, '/accounts/list');
    if (!startedHere(request, reply, query.state!, youtubeRedirectUri(oauth.publicUrl()))) return reply.redirect(anotherBrowserPath, 302);
    const account = await issuedAccount(issued);
    if (!account) return failWith(t.server.notFound, '/accounts/list');
    if (query.error || !query.code) return failWith(t.youtubeOauth.denied);
    if (!account.youtubeClientId || !account.youtubeClientSecret) return failWith(t.youtubeOauth.notReady);

    let tokens: GrantedTokens;
    try {
      const client = {
        id: account.youtubeClientId,
        secret: secretsOfRow(keys.secretsAtRest, 'accounts', account.id).open('youtube_client_secret', account.youtubeClientSecret)!,
      };
      const endpoints = {
        mode: oauth.platforms,
        publicUrl: oauth.publicUrl(),
        platformsOrigin: oauth.platformsOrigin(),
        network: oauth.network,
      };
      tokens = await linkConnectors.youtube.exchange(
        endpoints,
        proxyOfAccount(keys.secretsAtRest, account),
        client,
        query.code,
        youtubeRedirectUri(oauth.publicUrl()),
        issued.codeVerifier,
      );
    } catch (error) {
      if (error instanceof PlatformNetworkError) return failWith(error.message);
      if (error instanceof OAuthGrantError) return failWith(`${t.youtubeOauth.exchangeFailed}: ${error.message}`);
      throw error;
    }
    if (!tokens.refreshToken) return failWith(t.youtubeOauth.noRefreshToken);

    const refreshExpiresIn = tokens.refreshExpiresIn ?? (oauth.youtubeAppInTesting ? testingRefreshTokenSeconds : null);
    await saveGrantedConnection(db, keys.secretsAtRest, account.id, 'youtube', { ...tokens, refreshExpiresIn }, oauth.clock);
    await setProfileColumns(db, account.id, { inYouTube: true, updatedAt: new Date(app.clock.now()) });
    request.log.info({ accountId: account.id }, 'YouTube connected');
    await recordChannel({ ...account, inYouTube: true });
    await resumeWaiting(account.id, 'youtube');
    return reply.redirect(`/accounts/${account.id}?${youtubeConnectionParams.connected}=connected`, 302);
  });

  /**
   * TikTok's and Instagram's consent pages send the browser back here, as Google's does: the
   * spent `state` names the profile; the code becomes tokens kept in the profile's connection,
   * and the platform is switched on, as a profile connected through a link needs nothing typed.
   */
  for (const platform of consentPlatformIds) {
    app.get(`/${platform}/callback`, { schema: oauthSchemas.linkCallback }, async (request, reply) => {
      const { query } = request;
      const name = t.platform.names[platform];
      const issued = query.state ? await consumeOAuthState(db, platform, query.state, oauth.clock.now()) : null;
      const failWith = (message: string, path = `/accounts/${issued?.accountId}`) =>
        reply.redirect(`${path}?${new URLSearchParams({ [connectionParams[platform].error]: message })}`, 302);

      if (issued === null) return failWith(t.youtubeOauth.linkExpired, '/accounts/list');
      if (!startedHere(request, reply, query.state!, linkRedirectUri(oauth.publicUrl(), platform))) {
        return reply.redirect(anotherBrowserPath, 302);
      }
      const account = await issuedAccount(issued);
      if (!account) return failWith(t.server.notFound, '/accounts/list');
      if (query.error || !query.code) return failWith(t.connections.denied(name));
      const platformApp = (oauth.apps ?? builtInApps(oauth.platforms))[platform];
      if (!platformApp) return failWith(t.connections.appMissing(name, appVariables[platform]));

      let tokens: GrantedTokens;
      try {
        const endpoints = {
          mode: oauth.platforms,
          publicUrl: oauth.publicUrl(),
          platformsOrigin: oauth.platformsOrigin(),
          network: oauth.network,
        };
        tokens = await linkConnectors[platform].exchange(
          endpoints,
          proxyOfAccount(keys.secretsAtRest, account),
          platformApp,
          query.code,
          linkRedirectUri(oauth.publicUrl(), platform),
          issued.codeVerifier,
        );
      } catch (error) {
        if (error instanceof PlatformNetworkError) return failWith(error.message);
        if (error instanceof OAuthGrantError) return failWith(error.words ?? `${t.connections.exchangeFailed(name)}: ${error.message}`);
        throw error;
      }
      await saveGrantedConnection(db, keys.secretsAtRest, account.id, platform, tokens, oauth.clock);
      const switchedOn = { [platformOf(platform).fields.switchedOn]: true };
      await setProfileColumns(db, account.id, { ...switchedOn, updatedAt: new Date(app.clock.now()) });
      request.log.info({ accountId: account.id, platform }, 'platform connected through its consent page');
      await recordChannel({ ...account, ...switchedOn }, platform);
      await resumeWaiting(account.id, platform);
      return reply.redirect(`/accounts/${account.id}?${connectionParams[platform].connected}=connected`, 302);
    });
  }
};
