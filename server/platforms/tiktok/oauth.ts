import { form, OAuthGrantError, oauthHost, readJson, type GrantedTokens, type LinkConnector, type LinkEndpoints } from '../oauth-links';

/**
 * TikTok's OAuth error codes that end a grant ("OAuth Error Handling"): the code or refresh token
 * is invalid, expired or already used, or the app's credentials no longer match.
 */
const tiktokDeadCodes = ['invalid_grant', 'invalid_client', 'unauthorized_client', 'access_denied'];

/**
 * TikTok Login Kit for Web v2 ("Login Kit for Web", "Manage User Access Tokens"): the consent page
 * at www.tiktok.com/v2/auth/authorize/ with comma-separated scopes; POST open.tiktokapis.com/v2/oauth/token/
 * for the code and for refreshes. Access tokens live 2 hours (expires_in 86400 in older docs, 7200
 * now), refresh tokens 180 days (refresh_expires_in), and a refresh returns a new refresh token,
 * after which the old one fails.
 *
 * PKCE binds the code to the flow that asked for it: the token endpoint takes `code_verifier`
 * ("Get a User Access Token", developers.tiktok.com/doc/oauth-get-a-user-access-token: required
 * for mobile and desktop apps, the verifier of the authorization request's code challenge), and the
 * consent page takes `code_challenge` with `code_challenge_method=S256`; a web app may send them,
 * and TikTok then refuses a verifier that does not match ("Code verifier or code challenge is invalid.").
 */
export const tiktokLink: LinkConnector = {
  platform: 'tiktok',
  consentUrl(endpoints, app, redirectUri, state, codeChallenge) {
    const params = new URLSearchParams({
      client_key: app.id,
      // The Content Posting API's direct post (video.publish, video.upload), the Display API's
      // video list that finds a post again (video.list), and the creator's name (user.info.basic).
      scope: 'user.info.basic,video.publish,video.upload,video.list',
      response_type: 'code',
      redirect_uri: redirectUri,
      state,
      code_challenge: codeChallenge,
      code_challenge_method: 'S256',
    });
    return `${oauthHost(endpoints.mode, endpoints.publicUrl, 'www.tiktok.com')}/v2/auth/authorize/?${params}`;
  },
  exchange(endpoints, proxy, app, code, redirectUri, codeVerifier) {
    return tiktokToken(endpoints, proxy, {
      client_key: app.id,
      client_secret: app.secret,
      code,
      grant_type: 'authorization_code',
      redirect_uri: redirectUri,
      ...(codeVerifier ? { code_verifier: codeVerifier } : {}),
    });
  },
  renewGrant(endpoints, proxy, app, tokens) {
    if (!tokens.refreshToken) throw new OAuthGrantError('tiktok', 'invalid_grant', true, 'no refresh token');
    return tiktokToken(endpoints, proxy, {
      client_key: app.id,
      client_secret: app.secret,
      grant_type: 'refresh_token',
      refresh_token: tokens.refreshToken,
    });
  },
};

async function tiktokToken(endpoints: LinkEndpoints, proxy: string, values: Record<string, string>): Promise<GrantedTokens> {
  const url = `${oauthHost(endpoints.mode, endpoints.platformsOrigin, 'open.tiktokapis.com')}/v2/oauth/token/`;
  const response = await endpoints.network.fetch(proxy, url, form(values));
  const body = await readJson(response);
  if (!response.ok || typeof body.access_token !== 'string') {
    const code = typeof body.error === 'string' ? body.error : `HTTP ${response.status}`;
    throw new OAuthGrantError('tiktok', code, tiktokDeadCodes.includes(code), String(body.error_description ?? ''));
  }
  return {
    accessToken: body.access_token,
    accessExpiresIn: Number(body.expires_in),
    refreshToken: typeof body.refresh_token === 'string' ? body.refresh_token : null,
    refreshExpiresIn: body.refresh_expires_in === undefined ? null : Number(body.refresh_expires_in),
    remoteId: String(body.open_id ?? ''),
  };
}
