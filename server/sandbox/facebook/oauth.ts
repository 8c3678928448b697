import type { FastifyInstance } from 'fastify';
import { type PlatformCall, readBody, send } from '../common';
import { type FacebookPage, facebookPagesOf } from './pages';
import {
  accountOfLogin,
  AuthorizationCodes,
  badConsentRequest,
  type ConsentCode,
  consentDocument,
  escapeHtml,
  isHttpUrl,
  secretDigest,
  sendConsentPage,
} from '../consent';
import type { SandboxState } from '../state';
import { codeTtlSeconds } from '../tokens';
import { asFacebookRoutes, expiredToken, facebookError, invalidToken, revokedToken } from './api';

/** The dialog request's parameters, which each of its forms carries on. */
const requestFields = ['client_id', 'redirect_uri', 'response_type', 'scope', 'state'];

type Query = Record<string, string | undefined>;

const hiddenFields = (query: Query, names: string[]) =>
  names
    .filter((name) => query[name] !== undefined)
    .map((name) => `<input type="hidden" name="${name}" value="${escapeHtml(query[name]!)}">`)
    .join('');

const asked = (query: Query) => {
  const scopes = (query.scope ?? '')
    .split(',')
    .filter(Boolean)
    .map((scope) => `<li><code>${escapeHtml(scope)}</code></li>`)
    .join('');
  return `<p>Застосунок <code>${escapeHtml(query.client_id!)}</code> просить доступ:</p>
<ul>${scopes}</ul>
<p>Це сторінка пісочниці: справжній Facebook у режимі live показує свою.</p>`;
};

/** The dialog's first step: which sandbox person signs in. */
function signInPage(query: Query): string {
  return consentDocument(
    'Пісочниця Facebook: вхід',
    `<h1>Увійдіть у Facebook, щоб продовжити</h1>
${asked(query)}
<form method="get">${hiddenFields(query, requestFields)}
<label for="username">Особа пісочниці</label>
<input type="text" id="username" name="username" autocomplete="username" required>
<div class="actions">
<button type="submit" class="primary">Продовжити</button>
<button type="submit" formmethod="post" name="decision" value="deny" formnovalidate>Скасувати</button>
</div></form>`,
  );
}

/** The second step, as Meta's dialog has it: which of the person's Pages the app may use, each ticked at first. */
function pageChoicePage(query: Query, person: string, pages: FacebookPage[]): string {
  const choices = pages
    .map(
      (
        page,
      ) => `<div class="choice"><input type="checkbox" id="page-${page.id}" name="page" value="${page.id}" checked aria-describedby="tasks-${page.id}">
<label for="page-${page.id}">${escapeHtml(page.name)}</label>
<span class="hint" id="tasks-${page.id}">Завдання: ${page.tasks.join(', ')}</span></div>`,
    )
    .join('\n');
  const again = new URLSearchParams(requestFields.filter((name) => query[name] !== undefined).map((name) => [name, query[name]!]));
  return consentDocument(
    'Пісочниця Facebook: Сторінки',
    `<h1>Які Сторінки може використовувати застосунок?</h1>
<p>Ви входите як <strong>${escapeHtml(query.username!.trim())}</strong>. <a href="?${escapeHtml(again.toString())}">Увійти як інша особа</a></p>
${asked(query)}
<form method="post">${hiddenFields(query, [...requestFields, 'username'])}<input type="hidden" name="page_choice" value="1">
<fieldset><legend>Сторінки особи ${escapeHtml(person)}</legend>
${choices}
</fieldset>
<div class="actions">
<button type="submit" name="decision" value="allow">Дозволити</button>
<button type="submit" name="decision" value="deny" formnovalidate>Скасувати</button>
</div></form>`,
  );
}

/** What the dialog granted: ConsentCode's, and the Pages chosen. */
type FacebookConsent = ConsentCode & { pages: string[] };

/**
 * Facebook Login for Business as the sandbox plays it:
 * - GET|POST /sandbox/www.facebook.com/{version}/dialog/oauth: the dialog. It asks which sandbox
 *   person signs in, then which of that person's Pages the app may use (see facebookPagesOf), and
 *   redirects to redirect_uri with `code` and `state`, or with `error=access_denied`,
 *   `error_reason=user_denied` when the person cancels. A form posted without the Page step (a
 *   script's) grants every Page, as Meta's dialog ticks them all at first;
 * - GET /sandbox/graph.facebook.com/{version}/oauth/access_token: the code (single-use, 10
 *   minutes) for a short-lived User token (1 hour), or with grant_type=fb_exchange_token a User
 *   token for a long-lived one (60 days); both `{ access_token, token_type: 'bearer', expires_in }`.
 */
export function facebookOAuthSandbox(state: SandboxState) {
  const codes = new AuthorizationCodes<FacebookConsent>(state.now);

  const problemOf = (params: Query) => {
    if (!params.client_id) return 'Missing required parameter: client_id';
    if (!isHttpUrl(params.redirect_uri ?? '')) return 'Invalid parameter value for redirect_uri';
    if (params.response_type !== undefined && params.response_type !== 'code') return 'Invalid response_type: only "code" is supported';
    return null;
  };

  const dialog = async (app: FastifyInstance) => {
    app.get<PlatformCall>('/:version/dialog/oauth', async (request, reply) => {
      const query = request.query;
      const problem = problemOf(query);
      if (problem) return badConsentRequest(reply, problem);
      const person = accountOfLogin(query.username);
      return sendConsentPage(reply, person ? pageChoicePage(query, query.username!.trim(), facebookPagesOf(person)) : signInPage(query));
    });

    app.post<PlatformCall>('/:version/dialog/oauth', async (request, reply) => {
      const body = new URLSearchParams((await readBody(request)).toString('utf8'));
      const form: Query = { ...request.query, ...Object.fromEntries(body) };
      const problem = problemOf(form);
      if (problem) return badConsentRequest(reply, problem);
      const target = new URL(form.redirect_uri!);
      if (form.decision === 'allow') {
        const person = accountOfLogin(form.username);
        if (!person) return badConsentRequest(reply, 'Enter the sandbox person to sign in as');
        const own = facebookPagesOf(person).map((page) => page.id);
        const code = codes.issue({
          client: form.client_id!,
          redirectUri: form.redirect_uri!,
          account: person,
          scope: form.scope ?? '',
          pages: form.page_choice ? body.getAll('page').filter((id) => own.includes(id)) : own,
          expiresAt: state.now() + codeTtlSeconds * 1000,
        });
        target.searchParams.set('code', code);
      } else {
        target.searchParams.set('error', 'access_denied');
        target.searchParams.set('error_reason', 'user_denied');
        target.searchParams.set('error_description', 'Permissions error');
      }
      if (form.state !== undefined) target.searchParams.set('state', form.state);
      return reply.redirect(target.toString(), 302);
    });
  };

  const userTokenAnswer = (grantId: string, kind: 'access' | 'long-lived', expiresIn: number) => ({
    access_token: state.tokens.issue('facebook', grantId, kind, expiresIn),
    token_type: 'bearer',
    expires_in: expiresIn,
  });

  const token = async (app: FastifyInstance) => {
    asFacebookRoutes(app);

    app.get<PlatformCall>('/:version/oauth/access_token', async (request, reply) => {
      const query = request.query;
      if (!query.client_id || !query.client_secret)
        return send(reply, facebookError(400, 101, 'Missing client_id or client_secret parameter.'));
      if (query.grant_type === 'fb_exchange_token') {
        const check = state.tokens.checkAccess('facebook', query.fb_exchange_token ?? null, (person) =>
          state.isRevoked('facebook', person),
        );
        if (!check.ok) {
          return send(reply, check.reason === 'revoked' ? revokedToken() : check.reason === 'expired' ? expiredToken() : invalidToken());
        }
        const grant = check.grant ? state.tokens.grant(check.grant) : undefined;
        if (!grant || (check.kind !== 'access' && check.kind !== 'long-lived')) {
          return send(reply, facebookError(400, 100, '(#100) fb_exchange_token must be a User access token this app was given'));
        }
        if (grant.client !== query.client_id || grant.secretDigest !== secretDigest(query.client_secret)) {
          return send(reply, facebookError(400, 1, 'Error validating client secret.'));
        }
        return reply.send(userTokenAnswer(grant.id, 'long-lived', state.tokens.longLivedTtl('facebook')));
      }
      const code = codes.take(query.code);
      if (!code) return send(reply, facebookError(400, 100, 'This authorization code has been used or has expired.'));
      if (code.client !== query.client_id || code.redirectUri !== query.redirect_uri) {
        return send(
          reply,
          facebookError(
            400,
            100,
            'Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request',
          ),
        );
      }
      const grantId = state.tokens.newGrant('facebook', code.account, {
        client: code.client,
        secretDigest: secretDigest(query.client_secret),
        scope: code.scope,
        pages: code.pages,
      });
      return reply.send(userTokenAnswer(grantId, 'access', state.tokens.accessTtl('facebook')));
    });
  };

  return { dialog, token };
}
