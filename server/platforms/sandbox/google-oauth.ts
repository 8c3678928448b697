import crypto from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { SignJWT, jwtVerify, type JWTPayload } from 'jose';
import { sandboxTokenPrefix } from './common';
import type { SandboxState } from './state';

/**
 * Google's OAuth 2.0 endpoints as the sandbox plays them, mounted at /sandbox:
 * - GET  /accounts.google.com/o/oauth2/v2/auth approves at once and redirects (302) to
 *   redirect_uri with `code` and `state`, so following the consent link completes a connection;
 * - POST /oauth2.googleapis.com/token follows Google's token endpoint contract for
 *   `authorization_code` and `refresh_token` grants.
 * Codes and tokens are JWTs signed with the sandbox's own key, so they survive a restart and
 * `verifySandboxAccessToken` lets the other sandbox APIs check a Bearer token.
 */

export interface GoogleOAuthSandboxOptions {
  key: Uint8Array;
}

const issuer = 'sandbox-google';
const codeTtlSeconds = 600;
const accessTokenTtlSeconds = 3600;

type TokenKind = 'code' | 'access' | 'refresh';

interface SandboxClaims extends JWTPayload {
  kind: TokenKind;
  clientId: string;
  scope: string;
  redirectUri?: string;
  offline?: boolean;
  /** A digest of the client_secret the refresh token was issued to; refreshing needs the same secret. */
  secretDigest?: string;
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
 * emulated YouTube API knows which channel a token reaches; the signed part follows the dot.
 */
async function issueAccessToken(key: Uint8Array, clientId: string, scope: string): Promise<string> {
  const signed = await sign(key, { kind: 'access', clientId, scope }, accessTokenTtlSeconds);
  return `${sandboxTokenPrefix.youtube}${youtubeAccountOf(clientId)}.${signed}`;
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

export const googleOAuthSandbox: FastifyPluginAsync<GoogleOAuthSandboxOptions> = async (app, { key }) => {
  // Codes are single-use; a spent code is remembered until it would have expired anyway.
  const spentCodes = new Map<string, number>();
  const spend = (jti: string, expiresAt: number) => {
    const now = Date.now() / 1000;
    for (const [id, expiry] of spentCodes) if (expiry < now) spentCodes.delete(id);
    if (spentCodes.has(jti)) return false;
    spentCodes.set(jti, expiresAt);
    return true;
  };

  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  app.get('/accounts.google.com/o/oauth2/v2/auth', async (request, reply) => {
    const query = request.query as Record<string, string | undefined>;
    const clientId = query.client_id ?? '';
    const redirectUri = query.redirect_uri ?? '';
    const scope = query.scope ?? '';
    const problem = !clientId
      ? 'Missing required parameter: client_id'
      : !isHttpUrl(redirectUri)
        ? 'Invalid parameter value for redirect_uri'
        : query.response_type !== 'code'
          ? 'Invalid response_type: only "code" is supported'
          : !scope
            ? 'Missing required parameter: scope'
            : null;
    if (problem) return reply.status(400).type('text/plain; charset=utf-8').send(`Error 400: invalid_request\n${problem}`);

    const code = await sign(key, { kind: 'code', clientId, scope, redirectUri, offline: query.access_type === 'offline' }, codeTtlSeconds);
    const target = new URL(redirectUri);
    target.searchParams.set('code', code);
    if (query.state !== undefined) target.searchParams.set('state', query.state);
    target.searchParams.set('scope', scope);
    return reply.redirect(target.toString(), 302);
  });

  app.post('/oauth2.googleapis.com/token', async (request, reply) => {
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
      if (!spend(code.jti, code.exp)) return oauthError(reply, 400, 'invalid_grant', 'Bad Request');
      const accessToken = await issueAccessToken(key, clientId, code.scope);
      const refreshToken = code.offline
        ? await sign(key, { kind: 'refresh', clientId, scope: code.scope, secretDigest: digest(clientSecret) })
        : undefined;
      return {
        access_token: accessToken,
        expires_in: accessTokenTtlSeconds - 1,
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
      // A channel revoked through /sandbox/_revoke refuses refreshes, as Google does for a revoked grant.
      const sandbox = (request.server as { sandbox?: SandboxState }).sandbox;
      if (sandbox?.isRevoked('youtube', youtubeAccountOf(clientId))) {
        return oauthError(reply, 400, 'invalid_grant', 'Token has been expired or revoked.');
      }
      const accessToken = await issueAccessToken(key, clientId, refresh.scope);
      return { access_token: accessToken, expires_in: accessTokenTtlSeconds - 1, scope: refresh.scope, token_type: 'Bearer' };
    }

    return oauthError(reply, 400, 'unsupported_grant_type', `Invalid grant_type: ${form.grant_type ?? ''}`);
  });
};
