import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { readParams, send, type PlatformFailure } from './common';
import { AuthorizationCodes, accountOfLogin, badConsentRequest, consentPage, isHttpUrl, sendConsentPage } from './consent';
import { expiredToken, graphError, igUserIdOf } from './instagram';
import type { SandboxState } from './state';
import { codeTtlSeconds } from './tokens';

const digest = (secret: string) => crypto.createHash('sha256').update(secret).digest('base64url');

/** The Instagram Platform's OAuth errors on api.instagram.com: `{ error_type, code, error_message }`. */
function oauthError(message: string): PlatformFailure {
  return { status: 400, body: { error_type: 'OAuthException', code: 400, error_message: message } };
}

interface Code {
  clientId: string;
  redirectUri: string;
  account: string;
  scope: string;
  expiresAt: number;
}

const consentFields = ['client_id', 'redirect_uri', 'response_type', 'scope', 'state'];

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
  const codes = new AuthorizationCodes<Code>(state.now);

  const consentProblem = (params: Record<string, string | undefined>) => {
    if (!params.client_id) return 'Missing required parameter: client_id';
    if (!isHttpUrl(params.redirect_uri ?? '')) return 'Invalid redirect_uri';
    if (params.response_type !== 'code') return 'Invalid response_type: only "code" is supported';
    if (!params.scope) return 'Missing required parameter: scope';
    return null;
  };

  const authorize = async (app: FastifyInstance) => {
    app.get('/oauth/authorize', async (request, reply) => {
      const query = request.query as Record<string, string | undefined>;
      const problem = consentProblem(query);
      if (problem) return badConsentRequest(reply, problem);
      return sendConsentPage(
        reply,
        consentPage({
          platform: 'Instagram',
          title: 'вхід і дозвіл',
          clientId: query.client_id!,
          scopes: query.scope!.split(','),
          fields: Object.fromEntries(consentFields.map((field) => [field, query[field]])),
        }),
      );
    });

    app.post('/oauth/authorize', async (request, reply) => {
      const form = await readParams(request);
      const problem = consentProblem(form);
      if (problem) return badConsentRequest(reply, problem);
      const target = new URL(form.redirect_uri);
      if (form.decision === 'allow') {
        const account = accountOfLogin(form.username);
        if (!account) return badConsentRequest(reply, 'Enter the sandbox account to sign in as');
        const code = codes.issue({
          clientId: form.client_id,
          redirectUri: form.redirect_uri,
          account,
          scope: form.scope,
          expiresAt: state.now() + codeTtlSeconds * 1000,
        });
        target.searchParams.set('code', code);
        target.hash = '_';
      } else {
        target.searchParams.set('error', 'access_denied');
        target.searchParams.set('error_reason', 'user_denied');
        target.searchParams.set('error_description', 'The user denied your request.');
      }
      if (form.state !== undefined) target.searchParams.set('state', form.state);
      return reply.redirect(target.toString(), 302);
    });
  };

  const api = async (app: FastifyInstance) => {
    app.post('/oauth/access_token', async (request, reply) => {
      const form = await readParams(request);
      if (!form.client_id || !form.client_secret) return send(reply, oauthError('Missing client_id or client_secret'));
      if (form.grant_type !== 'authorization_code') return send(reply, oauthError('Unsupported grant_type'));
      const code = codes.take(form.code);
      if (!code) return send(reply, oauthError('This authorization code has been used or has expired'));
      if (code.clientId !== form.client_id) return send(reply, oauthError('Invalid client_id'));
      if (code.redirectUri !== form.redirect_uri)
        return send(
          reply,
          oauthError(
            'Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request',
          ),
        );
      const grantId = state.tokens.newGrant('instagram', code.account, {
        client: code.clientId,
        secretDigest: digest(form.client_secret),
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
    app.get('/access_token', async (request, reply) => {
      const query = request.query as Record<string, string | undefined>;
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
      if (grant.secretDigest !== digest(query.client_secret ?? '')) {
        return send(reply, graphError(400, 101, 'Error validating client secret.'));
      }
      return reply.send(longLivedAnswer(grant.id));
    });

    app.get('/refresh_access_token', async (request, reply) => {
      const query = request.query as Record<string, string | undefined>;
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
