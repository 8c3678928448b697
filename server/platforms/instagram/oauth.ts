import { form, OAuthGrantError, oauthHost, readJson, type GrantedTokens, type LinkConnector, type LinkEndpoints } from '../oauth-links';

/**
 * Instagram API with Instagram Login ("Business Login for Instagram"): the consent page at
 * www.instagram.com/oauth/authorize; POST api.instagram.com/oauth/access_token gives a short-lived
 * token (1 hour), GET graph.instagram.com/access_token?grant_type=ig_exchange_token a long-lived
 * one (60 days), and graph.instagram.com/refresh_access_token renews a long-lived token that is at
 * least 24 hours old and not expired, for another 60 days. There is no refresh token: the
 * long-lived token itself is renewed, and once it expires only a new consent helps.
 *
 * No PKCE: the authorization window takes client_id, redirect_uri, response_type, scope and state
 * only (developers.facebook.com/docs/instagram-platform/reference/oauth-authorize), and the code's
 * exchange no code_verifier, so the flow's challenge is not sent. Nothing else the platform offers
 * ties a code to one flow either (the redirect_uri is the same for every profile): the single-use
 * `state` is this flow's only binding, as docs/security.md says.
 */
export const instagramLink: LinkConnector = {
  platform: 'instagram',
  consentUrl(endpoints, app, redirectUri, state) {
    const params = new URLSearchParams({
      client_id: app.id,
      redirect_uri: redirectUri,
      response_type: 'code',
      // Media insights (the statistics sync) need instagram_business_manage_insights besides the
      // basic permission (developers.facebook.com/docs/instagram-platform/insights, "Permissions").
      scope: 'instagram_business_basic,instagram_business_content_publish,instagram_business_manage_insights',
      state,
    });
    return `${oauthHost(endpoints.mode, endpoints.publicUrl, 'www.instagram.com')}/oauth/authorize?${params}`;
  },
  async exchange(endpoints, proxy, app, code, redirectUri) {
    const url = `${oauthHost(endpoints.mode, endpoints.platformsOrigin, 'api.instagram.com')}/oauth/access_token`;
    const response = await endpoints.network.fetch(
      proxy,
      url,
      form({ client_id: app.id, client_secret: app.secret, grant_type: 'authorization_code', redirect_uri: redirectUri, code }),
    );
    const body = await readJson(response);
    // Answered as `{ data: [{ access_token, user_id, permissions }] }`, older docs show the fields at the top level.
    const short = Array.isArray(body.data) ? body.data[0] : body;
    if (!response.ok || typeof short?.access_token !== 'string') {
      const message = String(body.error_message ?? body.error?.message ?? `HTTP ${response.status}`);
      throw new OAuthGrantError('instagram', 'OAuthException', response.status === 400, message);
    }
    const params = new URLSearchParams({ grant_type: 'ig_exchange_token', client_secret: app.secret, access_token: short.access_token });
    return instagramGraphToken(endpoints, proxy, `access_token?${params}`, String(short.user_id));
  },
  renewGrant(endpoints, proxy, _app, tokens) {
    const params = new URLSearchParams({ grant_type: 'ig_refresh_token', access_token: tokens.accessToken });
    return instagramGraphToken(endpoints, proxy, `refresh_access_token?${params}`, tokens.remoteId);
  },
};

async function instagramGraphToken(endpoints: LinkEndpoints, proxy: string, path: string, remoteId: string): Promise<GrantedTokens> {
  const url = `${oauthHost(endpoints.mode, endpoints.platformsOrigin, 'graph.instagram.com')}/${path}`;
  const response = await endpoints.network.fetch(proxy, url, { headers: { accept: 'application/json' } });
  const body = await readJson(response);
  if (!response.ok || typeof body.access_token !== 'string') {
    // Graph API error 190 (OAuthException): the token is invalid, expired or revoked.
    const code = Number(body.error?.code);
    throw new OAuthGrantError('instagram', `OAuthException ${code || response.status}`, code === 190, String(body.error?.message ?? ''));
  }
  return { accessToken: body.access_token, accessExpiresIn: Number(body.expires_in), refreshToken: null, refreshExpiresIn: null, remoteId };
}
