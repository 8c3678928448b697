import type { FastifyInstance } from 'fastify';
import { type PlatformCall, type PlatformFailure, readParams, send } from '../common';
import { AuthorizationCodes, consentEndpoint, secretDigest, type ConsentCode } from '../consent';
import { expiredToken, graphError, igUserIdOf } from './api';
import type { SandboxState } from '../state';

/** The Instagram Platform's OAuth errors on api.instagram.com: `{ error_type, code, error_message }`. */
function oauthError(message: string): PlatformFailure {
  return { status: 400, body: { error_type: 'OAuthException', code: 400, error_message: message } };
}

/**
 * The Instagram API with Instagram Login ("Business Login for Instagram") as the sandbox plays it:
 * - GET|POST /sandbox/www.instagram.com/oauth/authorize: the consent page; the form redirects to
 *   redirect_uri with `code` (and `#_` after it, as Instagram appends) and `state`, or with
 *   `error=access_denied&error_reason=user_denied` when the user declines;
 * - POST /sandbox/api.instagram.com/oauth/access_token: the code for a short-lived token (1 hour),
 *   answered as `{ data: [{ access_token, user_id, permissions }] }`;
 * - GET /sandbox/graph.instagram.com/access_token?grant_type=ig_exchange_token: a short-lived token
 *   for a long-lived one (60 days), `{ access_token, token_type: 'bearer', expires_in }`;
 * - GET /sandbox/graph.instagram.com/refresh_access_token?grant_type=ig_refresh_token: a long-lived
 *   token at least 24 hours old and not expired for a new one of 60 days.
 */
export function instagramOAuthSandbox(state: SandboxState) {
  const codes = new AuthorizationCodes<ConsentCode>(state.now);

  const authorize = consentEndpoint({
    path: '/oauth/authorize',
    platform: 'Instagram',
    clientField: 'client_id',
    fields: ['client_id', 'redirect_uri', 'response_type', 'scope', 'state'],
    codes,
    now: state.now,
    withCode: (target, code) => {
      target.searchParams.set('code', code);
      target.hash = '_';
    },
    withRefusal: (target) => {
      target.searchParams.set('error', 'access_denied');
      target.searchParams.set('error_reason', 'user_denied');
      target.searchParams.set('error_description', 'The user denied your request.');
    },
  });

  const api = async (app: FastifyInstance) => {
    app.post<PlatformCall>('/oauth/access_token', async (request, reply) => {
      const form = await readParams(request);
      if (!form.client_id || !form.client_secret) return send(reply, oauthError('Missing client_id or client_secret'));
      if (form.grant_type !== 'authorization_code') return send(reply, oauthError('Unsupported grant_type'));
      const code = codes.take(form.code);
      if (!code) return send(reply, oauthError('This authorization code has been used or has expired'));
      if (code.client !== form.client_id) return send(reply, oauthError('Invalid client_id'));
      if (code.redirectUri !== form.redirect_uri)
        return send(
          reply,
          oauthError(
            'Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request',
          ),
        );
      const grantId = state.tokens.newGrant('instagram', code.account, {
        client: code.client,
        secretDigest: secretDigest(form.client_secret),
        scope: code.scope,
      });
      return reply.send({
        data: [
          {
            access_token: state.tokens.issue('instagram', grantId, 'access', state.tokens.accessTtl('instagram')),
            user_id: igUserIdOf(code.account),
            permissions: code.scope,
          },
        ],
      });
    });
  };

  const longLivedAnswer = (grantId: string) => {
    const expiresIn = state.tokens.longLivedTtl('instagram');
    return {
      access_token: state.tokens.issue('instagram', grantId, 'long-lived', expiresIn),
      token_type: 'bearer',
      expires_in: expiresIn,
    };
  };

  const graph = async (app: FastifyInstance) => {
    app.get<PlatformCall>('/access_token', async (request, reply) => {
      const query = request.query;
      if (query.grant_type !== 'ig_exchange_token') return send(reply, graphError(400, 100, 'Unsupported grant_type'));
      const check = state.tokens.checkAccess('instagram', query.access_token ?? null, () => false);
      if (!check.ok)
        return send(
          reply,
          check.reason === 'expired' ? expiredToken() : graphError(400, 190, 'Invalid OAuth access token - Cannot parse access token'),
        );
      if (check.kind !== 'access')
        return send(reply, graphError(400, 100, 'The access token is not a short-lived Instagram User access token'));
      const grant = state.tokens.grant(check.grant!)!;
      if (grant.secretDigest !== secretDigest(query.client_secret ?? '')) {
        return send(reply, graphError(400, 101, 'Error validating client secret.'));
      }
      return reply.send(longLivedAnswer(grant.id));
    });

    app.get<PlatformCall>('/refresh_access_token', async (request, reply) => {
      const query = request.query;
      if (query.grant_type !== 'ig_refresh_token') return send(reply, graphError(400, 100, 'Unsupported grant_type'));
      const check = state.tokens.checkAccess('instagram', query.access_token ?? null, () => false);
      if (!check.ok)
        return send(
          reply,
          check.reason === 'expired' ? expiredToken() : graphError(400, 190, 'Invalid OAuth access token - Cannot parse access token'),
        );
      if (check.kind !== 'long-lived')
        return send(reply, graphError(400, 100, 'Only long-lived Instagram User access tokens can be refreshed'));
      if (state.now() - check.issuedAt < state.tokens.instagramRefreshMinAge() * 1000) {
        return send(reply, graphError(400, 100, 'The access token must be at least 24 hours old to be refreshed'));
      }
      return reply.send(longLivedAnswer(check.grant!));
    });
  };

  return { authorize, api, graph };
}
