import crypto from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { SignJWT, jwtVerify, type JWTPayload } from 'jose';
import { countAnsweredCall, type PlatformCall, sandboxTokenPrefix } from '../common';
import { tokenLifetimes } from '../tokens';
import { pkceVerifies } from '../consent';
import type { SandboxState } from '../state';

/**
 * Google's OAuth 2.0 endpoints as the sandbox plays them, mounted at /sandbox:
 * - GET  /accounts.google.com/o/oauth2/v2/auth shows a consent page naming the client and the
 *   scopes, with 'Дозволити' and 'Скасувати'; its form POSTs back to the same address, which
 *   redirects (302) to redirect_uri with `code` and `state`, or with `error=access_denied` as
 *   Google does when the user declines;
 * - POST /oauth2.googleapis.com/token follows Google's token endpoint contract for
 *   `authorization_code` and `refresh_token` grants, with PKCE (`code_challenge` S256 or plain on
 *   the consent request, `code_verifier` at the exchange) optional as Google keeps it.
 * Codes and tokens are JWTs signed with the sandbox's own key, so they survive a restart and
 * `verifySandboxAccessToken` lets the other sandbox APIs check a Bearer token.
 */

export interface GoogleOAuthSandboxOptions {
  key: Uint8Array;
  /** The sandbox's clock, for forgetting spent codes. */
  now: () => number;
}

const issuer = 'sandbox-google';
const codeTtlSeconds = 600;
/** A published app's refresh token has no end of its own: a century stands for it, kept as a finite number in the saved state. */
const unlimitedRefreshSeconds = 100 * 365 * 24 * 3600;

type TokenKind = 'code' | 'access' | 'refresh';

interface SandboxClaims extends JWTPayload {
  kind: TokenKind;
  clientId: string;
  scope: string;
  redirectUri?: string;
  offline?: boolean;
  /** A digest of the client_secret the refresh token was issued to; refreshing needs the same secret. */
  secretDigest?: string;
  /** A code's PKCE challenge and method, when its consent request sent one. */
  codeChallenge?: string;
  codeChallengeMethod?: string;
}

function sign(key: Uint8Array, claims: SandboxClaims, ttlSeconds?: number): Promise<string> {
  const jwt = new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuer(issuer).setIssuedAt().setJti(crypto.randomUUID());
  if (ttlSeconds) jwt.setExpirationTime(`${ttlSeconds}s`);
  return jwt.sign(key);
}

async function verify(key: Uint8Array, token: string, kind: TokenKind): Promise<SandboxClaims | null> {
  try {
    const { payload } = await jwtVerify<SandboxClaims>(token, key, { algorithms: ['HS256'], issuer });
    return payload.kind === kind ? payload : null;
  } catch {
    return null;
  }
}

/** The YouTube sandbox's account for an OAuth client: each profile brings its own client, so its own channel. */
function youtubeAccountOf(clientId: string): string {
  return Buffer.from(clientId).toString('base64url');
}

/**
 * Access tokens start with the YouTube sandbox's account prefix (see sandbox/common.ts), so the
 * emulated YouTube API knows which channel a token reaches; the signed part follows the dot. The
 * sandbox's state registers each one, so it expires by the sandbox's clock after 1 hour (Google,
 * "Using OAuth 2.0 to Access Google APIs": access tokens have a limited lifetime, 3600 s in
 * expires_in) or SANDBOX_TOKEN_TTL_SECONDS, and dies with a revoked grant.
 */
async function issueAccessToken(key: Uint8Array, sandbox: SandboxState | undefined, clientId: string, scope: string, grant?: string) {
  const ttl = sandbox?.tokens.accessTtl('youtube') ?? 3600;
  const account = youtubeAccountOf(clientId);
  const token = `${sandboxTokenPrefix.youtube}${account}.${await sign(key, { kind: 'access', clientId, scope }, ttl)}`;
  sandbox?.tokens.register(token, grant ?? sandbox.tokens.liveGrant('youtube', account), 'access', ttl);
  // Google answers expires_in a second short of the lifetime (3599).
  return { access_token: token, expires_in: ttl - 1 };
}

/** The client and scopes an access token of the sandbox was issued for, or null when it is not valid. */
export async function verifySandboxAccessToken(key: Uint8Array, token: string): Promise<{ clientId: string; scope: string } | null> {
  if (!token.startsWith(sandboxTokenPrefix.youtube)) return null;
  const claims = await verify(key, token.slice(token.indexOf('.') + 1), 'access');
  return claims ? { clientId: claims.clientId, scope: claims.scope } : null;
}

const digest = (secret: string) => crypto.createHash('sha256').update(secret).digest('base64url');

function isHttpUrl(value: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

function oauthError(reply: FastifyReply, status: number, error: string, description: string) {
  return reply.status(status).send({ error, error_description: description });
}

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/** The parameters the consent form carries back; what the page shows comes from the same ones. */
const consentFields = [
  'client_id',
  'redirect_uri',
  'response_type',
  'scope',
  'state',
  'access_type',
  'code_challenge',
  'code_challenge_method',
];

/**
 * The sandbox's stand-in for Google's consent screen: the operator sees which client asks for
 * which scopes on this channel and decides, as on the real page, instead of being redirected.
 */
function consentPage(query: Record<string, string | undefined>): string {
  const hidden = consentFields
    .filter((field) => query[field] !== undefined)
    .map((field) => `<input type="hidden" name="${field}" value="${escapeHtml(query[field]!)}">`)
    .join('');
  const scopes = (query.scope ?? '')
    .split(' ')
    .filter(Boolean)
    .map((scope) => `<li><code>${escapeHtml(scope)}</code></li>`)
    .join('');
  return `<!doctype html>
<html lang="uk"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Пісочниця Google: доступ до YouTube</title>
<style>body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f1f5f9;color:#0f172a}main{max-width:32rem;margin:3rem auto;padding:2rem;background:#fff;border-radius:12px;box-shadow:0 1px 3px #0002}h1{font-size:1.25rem}code{word-break:break-all}.actions{display:flex;gap:.75rem;flex-wrap:wrap;margin-top:1.5rem}button{font:inherit;padding:.6rem 1.4rem;border-radius:8px;border:1px solid #1d4ed8;cursor:pointer}button[value=allow]{background:#1d4ed8;color:#fff}button[value=deny]{background:#fff;color:#1d4ed8}</style>
</head><body><main>
<h1>Застосунок просить доступ до вашого каналу YouTube</h1>
<p>Клієнт OAuth <code>${escapeHtml(query.client_id ?? '')}</code> отримає доступ:</p>
<ul>${scopes}</ul>
<p>Це сторінка пісочниці: справжній Google у режимі live показує свою.</p>
<form method="post">${hidden}<div class="actions">
<button type="submit" name="decision" value="allow">Дозволити</button>
<button type="submit" name="decision" value="deny">Скасувати</button>
</div></form>
</main></body></html>`;
}

export const googleOAuthSandbox: FastifyPluginAsync<GoogleOAuthSandboxOptions> = async (app, { key, now }) => {
  // Codes are single-use; a spent code is remembered until it would have expired anyway.
  const spentCodes = new Map<string, number>();
  const spend = (jti: string, expiresAt: number) => {
    const nowSeconds = now() / 1000;
    for (const [id, expiry] of spentCodes) if (expiry < nowSeconds) spentCodes.delete(id);
    if (spentCodes.has(jti)) return false;
    spentCodes.set(jti, expiresAt);
    return true;
  };

  app.addHook('onResponse', async (request) => {
    const sandbox = (request.server as { sandbox?: SandboxState }).sandbox;
    if (sandbox) countAnsweredCall(sandbox, request);
  });

  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  /** The consent request as Google checks it; a broken one gets Google's plain-text 400 instead of a page. */
  function consentProblem(query: Record<string, string | undefined>): string | null {
    if (!query.client_id) return 'Missing required parameter: client_id';
    if (!isHttpUrl(query.redirect_uri ?? '')) return 'Invalid parameter value for redirect_uri';
    if (query.response_type !== 'code') return 'Invalid response_type: only "code" is supported';
    if (!query.scope) return 'Missing required parameter: scope';
    if (query.code_challenge !== undefined && !['S256', 'plain', undefined].includes(query.code_challenge_method))
      return 'Invalid code_challenge_method';
    return null;
  }

  app.get<PlatformCall>('/accounts.google.com/o/oauth2/v2/auth', async (request, reply) => {
    const query = request.query;
    const problem = consentProblem(query);
    if (problem) return reply.status(400).type('text/plain; charset=utf-8').send(`Error 400: invalid_request\n${problem}`);
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(consentPage(query));
  });

  app.post<PlatformCall>('/accounts.google.com/o/oauth2/v2/auth', async (request, reply) => {
    const form = (request.body ?? {}) as Record<string, string | undefined>;
    const problem = consentProblem(form);
    if (problem) return reply.status(400).type('text/plain; charset=utf-8').send(`Error 400: invalid_request\n${problem}`);
    const { client_id: clientId = '', redirect_uri: redirectUri = '', scope = '' } = form;
    const target = new URL(redirectUri);
    const allowed = form.decision === 'allow';
    if (allowed) {
      const offline = form.access_type === 'offline';
      const pkce = form.code_challenge
        ? { codeChallenge: form.code_challenge, codeChallengeMethod: form.code_challenge_method ?? 'plain' }
        : {};
      target.searchParams.set('code', await sign(key, { kind: 'code', clientId, scope, redirectUri, offline, ...pkce }, codeTtlSeconds));
    } else {
      target.searchParams.set('error', 'access_denied');
    }
    if (form.state !== undefined) target.searchParams.set('state', form.state);
    if (allowed) target.searchParams.set('scope', scope);
    return reply.redirect(target.toString(), 302);
  });

  app.post<PlatformCall>('/oauth2.googleapis.com/token', async (request, reply) => {
    const form = (request.body ?? {}) as Record<string, string | undefined>;
    const clientId = form.client_id;
    const clientSecret = form.client_secret;
    if (!clientId || !clientSecret) return oauthError(reply, 401, 'invalid_client', 'The OAuth client was not found.');

    if (form.grant_type === 'authorization_code') {
      if (!form.code || !form.redirect_uri)
        return oauthError(reply, 400, 'invalid_request', 'Missing required parameter: code or redirect_uri');
      const code = await verify(key, form.code, 'code');
      if (!code || !code.jti || !code.exp) return oauthError(reply, 400, 'invalid_grant', 'Malformed auth code.');
      if (code.clientId !== clientId) return oauthError(reply, 401, 'invalid_client', 'Unauthorized');
      if (code.redirectUri !== form.redirect_uri) return oauthError(reply, 400, 'redirect_uri_mismatch', 'Bad Request');
      // PKCE stays optional, as Google keeps it for web server apps; a code asked for with a
      // challenge needs its verifier, and one asked for without refuses a verifier. A refused
      // verifier leaves the code unspent, for the flow that holds the right one.
      if (code.codeChallenge && !form.code_verifier) return oauthError(reply, 400, 'invalid_grant', 'Missing code verifier.');
      if (code.codeChallenge && !pkceVerifies(code.codeChallenge, code.codeChallengeMethod, form.code_verifier))
        return oauthError(reply, 400, 'invalid_grant', 'Invalid code verifier.');
      if (!code.codeChallenge && form.code_verifier)
        return oauthError(reply, 400, 'invalid_grant', 'code_verifier or verifier is not needed.');
      if (!spend(code.jti, code.exp)) return oauthError(reply, 400, 'invalid_grant', 'Bad Request');
      // Each consent is a new grant: tokens of a grant revoked earlier stay refused, these work.
      const sandbox = (request.server as { sandbox?: SandboxState }).sandbox;
      const grant = sandbox?.tokens.newGrant('youtube', youtubeAccountOf(clientId));
      const access = await issueAccessToken(key, sandbox, clientId, code.scope, grant);
      const refreshToken = code.offline
        ? await sign(key, { kind: 'refresh', clientId, scope: code.scope, secretDigest: digest(clientSecret) })
        : undefined;
      // Google, "Using OAuth 2.0 to Access Google APIs" (Refresh token expiration): an app whose
      // publishing status is "Testing" gets refresh tokens that expire in 7 days, which the token
      // answer does not mention; a published app's last until revoked (or unused for 6 months).
      const refreshTtl = sandbox?.youtubeAppInTesting ? tokenLifetimes.youtube.refresh : unlimitedRefreshSeconds;
      if (sandbox && grant && refreshToken) sandbox.tokens.register(refreshToken, grant, 'refresh', refreshTtl);
      return {
        ...access,
        ...(refreshToken ? { refresh_token: refreshToken } : {}),
        scope: code.scope,
        token_type: 'Bearer',
      };
    }

    if (form.grant_type === 'refresh_token') {
      if (!form.refresh_token) return oauthError(reply, 400, 'invalid_request', 'Missing required parameter: refresh_token');
      const refresh = await verify(key, form.refresh_token, 'refresh');
      if (!refresh || refresh.clientId !== clientId) return oauthError(reply, 400, 'invalid_grant', 'Bad Request');
      if (refresh.secretDigest !== digest(clientSecret)) return oauthError(reply, 401, 'invalid_client', 'Unauthorized');
      // A refresh token past its 7 days (an app in testing), or of a grant revoked through /sandbox/_revoke, gets
      // Google's invalid_grant. One the sandbox has no record of (signed before it kept them)
      // is refused once its channel was revoked.
      const sandbox = (request.server as { sandbox?: SandboxState }).sandbox;
      const check = sandbox?.tokens.checkRefresh('youtube', form.refresh_token);
      const refused = check && !check.ok && (check.reason !== 'invalid' || sandbox!.isRevoked('youtube', youtubeAccountOf(clientId)));
      if (refused) return oauthError(reply, 400, 'invalid_grant', 'Token has been expired or revoked.');
      const grant = check?.ok ? check.grant! : undefined;
      return { ...(await issueAccessToken(key, sandbox, clientId, refresh.scope, grant)), scope: refresh.scope, token_type: 'Bearer' };
    }

    return oauthError(reply, 400, 'unsupported_grant_type', `Invalid grant_type: ${form.grant_type ?? ''}`);
  });
};
