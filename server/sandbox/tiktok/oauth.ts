import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { readParams, send, type PlatformCall } from '../common';
import { AuthorizationCodes, consentEndpoint, pkceVerifies, secretDigest, type ConsentCode } from '../consent';
import { stableId, type SandboxState } from '../state';
import { tokenLifetimes } from '../tokens';

const logId = () => crypto.randomBytes(16).toString('hex').toUpperCase();

/** TikTok, "OAuth Error Handling": `{ error, error_description, log_id }`. */
function oauthError(status: number, error: string, description: string) {
  return { status, body: { error, error_description: description, log_id: logId() } };
}

/**
 * TikTok Login Kit v2 as the sandbox plays it:
 * - GET|POST /sandbox/www.tiktok.com/v2/auth/authorize/ (Login Kit for Web, "Authorize"): the
 *   consent page; the form redirects to redirect_uri with `code`, `scopes` and `state`, or with
 *   `error=access_denied` when the user declines;
 * - POST /sandbox/open.tiktokapis.com/v2/oauth/token/ ("Get a User Access Token", "Refresh a User
 *   Access Token"): `authorization_code` and `refresh_token` grants, form-encoded, answering
 *   access_token, expires_in, open_id, refresh_token, refresh_expires_in, scope, token_type.
 *   Refresh tokens rotate: the one sent stops working once a new one is issued.
 * PKCE is optional, as for TikTok's web apps; a code whose consent request carried a
 * `code_challenge` (S256) needs the matching `code_verifier`, else TikTok's
 * `invalid_request` "Code verifier or code challenge is invalid.".
 */
export function tiktokOAuthSandbox(state: SandboxState) {
  const codes = new AuthorizationCodes<ConsentCode>(state.now);

  const authorize = consentEndpoint({
    path: '/v2/auth/authorize/',
    platform: 'TikTok',
    clientField: 'client_key',
    fields: ['client_key', 'redirect_uri', 'response_type', 'scope', 'state', 'code_challenge', 'code_challenge_method'],
    codes,
    now: state.now,
    withCode: (target, code, scope) => {
      target.searchParams.set('code', code);
      target.searchParams.set('scopes', scope);
    },
    withRefusal: (target) => {
      target.searchParams.set('error', 'access_denied');
      target.searchParams.set('error_description', 'The user denied the request.');
    },
  });

  const tokenAnswer = (grantId: string) => {
    const grant = state.tokens.grant(grantId)!;
    const expiresIn = state.tokens.accessTtl('tiktok');
    return {
      access_token: state.tokens.issue('tiktok', grantId, 'access', expiresIn),
      expires_in: expiresIn,
      open_id: stableId(`${grant.client}:${grant.account}`, 'tiktok-open-id', 32, 'base64url'),
      refresh_token: state.tokens.issue('tiktok', grantId, 'refresh', tokenLifetimes.tiktok.refresh),
      refresh_expires_in: tokenLifetimes.tiktok.refresh,
      scope: grant.scope,
      token_type: 'Bearer',
    };
  };

  const token = async (app: FastifyInstance) => {
    app.post<PlatformCall>('/v2/oauth/token/', async (request, reply) => {
      const form = await readParams(request);
      if (!form.client_key || !form.client_secret) {
        return send(reply, oauthError(401, 'invalid_client', 'Client key or secret is missing.'));
      }
      if (form.grant_type === 'authorization_code') {
        if (!form.code || !form.redirect_uri) {
          return send(reply, oauthError(400, 'invalid_request', 'Missing required parameter: code or redirect_uri.'));
        }
        const expired = oauthError(400, 'invalid_grant', 'Authorization code is expired or was already used.');
        const asked = codes.find(form.code);
        if (!asked) return send(reply, expired);
        // The code of a request that sent a code_challenge is redeemed only with its verifier. A
        // wrong one leaves the code unspent: whoever holds a code without its verifier cannot use
        // it, nor spend it under the flow it belongs to.
        if (asked.codeChallenge && !pkceVerifies(asked.codeChallenge, 'S256', form.code_verifier)) {
          return send(reply, oauthError(400, 'invalid_request', 'Code verifier or code challenge is invalid.'));
        }
        const code = codes.take(form.code);
        if (!code) return send(reply, expired);
        if (code.client !== form.client_key) return send(reply, oauthError(401, 'invalid_client', 'Client key does not match.'));
        if (code.redirectUri !== form.redirect_uri) {
          return send(reply, oauthError(400, 'invalid_grant', 'redirect_uri does not match the authorization request.'));
        }
        const grantId = state.tokens.newGrant('tiktok', code.account, {
          client: code.client,
          secretDigest: secretDigest(form.client_secret),
          scope: code.scope,
        });
        return reply.send(tokenAnswer(grantId));
      }
      if (form.grant_type === 'refresh_token') {
        const check = state.tokens.checkRefresh('tiktok', form.refresh_token);
        if (!check.ok) {
          const why = { invalid: 'is invalid', expired: 'is expired', revoked: 'was revoked', spent: 'was already used' }[check.reason];
          return send(reply, oauthError(400, 'invalid_grant', `Refresh token ${why}.`));
        }
        const grant = state.tokens.grant(check.grant!)!;
        if (grant.client !== form.client_key || grant.secretDigest !== secretDigest(form.client_secret)) {
          return send(reply, oauthError(401, 'invalid_client', 'Client key or secret does not match.'));
        }
        state.tokens.spend(form.refresh_token);
        return reply.send(tokenAnswer(grant.id));
      }
      return send(reply, oauthError(400, 'unsupported_grant_type', `Invalid grant_type: ${form.grant_type ?? ''}`));
    });
  };

  return { authorize, token };
}
