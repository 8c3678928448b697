import { OAuthGrantError, oauthHost, readJson, type GrantedTokens, type LinkConnector, type LinkEndpoints } from '../oauth-links';
import { t } from '../../messages';

/**
 * Facebook Login for Business, built by hand ("Manually Build a Login Flow",
 * developers.facebook.com/docs/facebook-login/guides/advanced/manual-flow): the dialog at
 * www.facebook.com/{version}/dialog/oauth, where the person also picks the Pages the app may use;
 * GET graph.facebook.com/{version}/oauth/access_token turns the code into a short-lived User token,
 * grant_type=fb_exchange_token into a long-lived one ("Long-Lived Access Tokens",
 * developers.facebook.com/docs/facebook-login/guides/access-tokens/get-long-lived), and /me/accounts
 * with that token gives each granted Page its Page token, which is what posts a Reel.
 *
 * No PKCE: the dialog takes client_id, redirect_uri, state, response_type and scope, and the code's
 * exchange no code_verifier, so the flow's challenge is not sent. The single-use `state` is the
 * flow's only binding, as docs/security.md says.
 */

const graphVersion = 'v22.0';

/**
 * What the Reels Publishing API asks of a Page token ("Before You Start"): the person can perform
 * CREATE_CONTENT on the Page and granted pages_show_list, pages_read_engagement and
 * pages_manage_posts. pages_read_engagement also opens the Reels' video_insights (the statistics).
 */
const scope = 'pages_show_list,pages_read_engagement,pages_manage_posts';
const postingTask = 'CREATE_CONTENT';

/**
 * "Long-lived Page access tokens … have no expiration date" (the Page tokens /me/accounts gives for
 * a long-lived User token, docs/facebook-login/guides/access-tokens/get-long-lived): they end only
 * when the person revokes the app, loses the Page's task or changes their password, and no token
 * endpoint renews them then. GrantedTokens needs a lifetime, so a century: the refresher, which
 * renews at half a token's life, never calls, and no "ending" notice is ever due.
 */
const pageTokenSeconds = 100 * 365 * 24 * 3600;

interface GrantedPage {
  id: string;
  name: string;
  access_token: string;
  tasks?: string[];
}

async function graphGet(endpoints: LinkEndpoints, proxy: string, path: string): Promise<Record<string, any>> {
  const url = `${oauthHost(endpoints.mode, endpoints.platformsOrigin, 'graph.facebook.com')}/${graphVersion}/${path}`;
  const response = await endpoints.network.fetch(proxy, url, { headers: { accept: 'application/json' } });
  const body = await readJson(response);
  if (!response.ok || body.error) {
    // Graph API error 190 (OAuthException): the token is invalid, expired or revoked; only a new consent helps.
    const code = Number(body.error?.code);
    throw new OAuthGrantError('facebook', `OAuthException ${code || response.status}`, code === 190, String(body.error?.message ?? ''));
  }
  return body;
}

async function userToken(endpoints: LinkEndpoints, proxy: string, params: Record<string, string>): Promise<string> {
  const body = await graphGet(endpoints, proxy, `oauth/access_token?${new URLSearchParams(params)}`);
  if (typeof body.access_token !== 'string')
    throw new OAuthGrantError('facebook', 'OAuthException', false, 'no access_token in the answer');
  return body.access_token;
}

/**
 * The one Page the person granted and may post to. The Page is chosen in Meta's dialog, not here:
 * none (`no_page`) or several (`several_pages`) is refused, and the operator connects again
 * choosing one. Each detail names the Pages concerned.
 */
function thePage(granted: GrantedPage[]): GrantedPage {
  const postable = granted.filter((page) => page.tasks?.includes(postingTask));
  const names = (pages: GrantedPage[]) => pages.map((page) => page.name).join(', ');
  if (postable.length === 0) {
    throw new OAuthGrantError(
      'facebook',
      'no_page',
      true,
      names(granted),
      t.connections.pageChoice.none(t.platform.names.facebook, names(granted)),
    );
  }
  if (postable.length > 1) {
    throw new OAuthGrantError(
      'facebook',
      'several_pages',
      true,
      names(postable),
      t.connections.pageChoice.several(t.platform.names.facebook, names(postable)),
    );
  }
  return postable[0]!;
}

const pageGrant = (accessToken: string, pageId: string): GrantedTokens => ({
  accessToken,
  accessExpiresIn: pageTokenSeconds,
  refreshToken: null,
  refreshExpiresIn: null,
  remoteId: pageId,
});

export const facebookLink: LinkConnector = {
  platform: 'facebook',
  consentUrl(endpoints, app, redirectUri, state) {
    const params = new URLSearchParams({ client_id: app.id, redirect_uri: redirectUri, state, response_type: 'code', scope });
    return `${oauthHost(endpoints.mode, endpoints.publicUrl, 'www.facebook.com')}/${graphVersion}/dialog/oauth?${params}`;
  },
  async exchange(endpoints, proxy, app, code, redirectUri) {
    const short = await userToken(endpoints, proxy, { client_id: app.id, client_secret: app.secret, redirect_uri: redirectUri, code });
    // A Page token got with a short-lived User token ends with it, within hours; with a long-lived one it never does.
    const long = await userToken(endpoints, proxy, {
      grant_type: 'fb_exchange_token',
      client_id: app.id,
      client_secret: app.secret,
      fb_exchange_token: short,
    });
    const accounts = await graphGet(
      endpoints,
      proxy,
      `me/accounts?${new URLSearchParams({ fields: 'id,name,access_token,tasks', access_token: long })}`,
    );
    const page = thePage(Array.isArray(accounts.data) ? accounts.data : []);
    return pageGrant(page.access_token, String(page.id));
  },
  /**
   * Called only after Meta refused the Page token (its lifetime never runs out). No User token is
   * kept: a long-lived one ends in 60 days while the Page token does not, and whatever kills the
   * Page token (a revoked app, a lost task, a new password) kills the User token too, so it could
   * never make a new one. The stored token is read once more instead: refused with 190, the grant
   * is dead and only a new consent helps; still working, it is the renewal.
   */
  async renewGrant(endpoints, proxy, _app, tokens) {
    await graphGet(
      endpoints,
      proxy,
      `${encodeURIComponent(tokens.remoteId)}?${new URLSearchParams({ fields: 'id', access_token: tokens.accessToken })}`,
    );
    return pageGrant(tokens.accessToken, tokens.remoteId);
  },
};
