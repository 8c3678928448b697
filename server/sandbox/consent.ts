import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { type PlatformCall, readParams } from './common';
import { codeTtlSeconds } from './tokens';

export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/** A client secret as the sandbox keeps it: refreshing or exchanging later needs the same one. */
export const secretDigest = (secret: string) => crypto.createHash('sha256').update(secret).digest('base64url');

export function isHttpUrl(value: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

/**
 * The sandbox's stand-in for a platform's login-and-consent page, in the style of its Google one
 * (youtube/oauth.ts): the operator names the sandbox account to sign in as (any login; each login
 * is its own account), sees which app asks for which scopes, and presses 'Дозволити' or
 * 'Скасувати'. The form posts the request's own parameters back to the same address.
 */
export function consentPage(options: {
  platform: string;
  title: string;
  clientId: string;
  scopes: string[];
  fields: Record<string, string | undefined>;
}): string {
  const hidden = Object.entries(options.fields)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value!)}">`)
    .join('');
  const scopes = options.scopes.map((scope) => `<li><code>${escapeHtml(scope)}</code></li>`).join('');
  return consentDocument(
    `Пісочниця ${options.platform}: ${options.title}`,
    `<h1>Застосунок просить доступ до вашого облікового запису ${escapeHtml(options.platform)}</h1>
<p>Застосунок <code>${escapeHtml(options.clientId)}</code> отримає доступ:</p>
<ul>${scopes}</ul>
<p>Це сторінка пісочниці: справжній ${escapeHtml(options.platform)} у режимі live показує свою.</p>
<form method="post">${hidden}
<label for="username">Обліковий запис пісочниці</label>
<input type="text" id="username" name="username" autocomplete="username" required>
<div class="actions">
<button type="submit" name="decision" value="allow">Дозволити</button>
<button type="submit" name="decision" value="deny" formnovalidate>Скасувати</button>
</div></form>`,
  );
}

/** The document every sandbox consent page shares, around its `<main>`. */
export function consentDocument(title: string, main: string): string {
  return `<!doctype html>
<html lang="uk"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f1f5f9;color:#0f172a}main{max-width:32rem;margin:3rem auto;padding:2rem;background:#fff;border-radius:12px;box-shadow:0 1px 3px #0002}h1{font-size:1.25rem}code{word-break:break-all}label{display:block;margin-top:1rem;font-weight:600}input[type=text]{font:inherit;width:100%;box-sizing:border-box;padding:.5rem;border:1px solid #94a3b8;border-radius:8px}fieldset{margin-top:1rem;border:1px solid #94a3b8;border-radius:8px}legend{font-weight:600}.choice{display:flex;gap:.5rem;align-items:baseline;margin-top:.5rem}.choice label{margin:0;font-weight:400}.hint{color:#475569;font-size:.875rem}a{color:#1d4ed8}.actions{display:flex;gap:.75rem;flex-wrap:wrap;margin-top:1.5rem}button{font:inherit;padding:.6rem 1.4rem;border-radius:8px;border:1px solid #1d4ed8;cursor:pointer}button[value=allow],button.primary{background:#1d4ed8;color:#fff}button[value=deny]{background:#fff;color:#1d4ed8}</style>
</head><body><main>
${main}
</main></body></html>`;
}

export function sendConsentPage(reply: FastifyReply, html: string) {
  return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
}

/** A request the platform refuses before showing its page: a plain-text 400, as Google's sandbox does. */
export function badConsentRequest(reply: FastifyReply, problem: string) {
  return reply.status(400).type('text/plain; charset=utf-8').send(`Error 400: invalid_request\n${problem}`);
}

/** The sandbox account a consent form names: its login as the account key every mirror uses (see common.ts). */
export function accountOfLogin(login: string | undefined): string | null {
  const trimmed = login?.trim() ?? '';
  return trimmed ? Buffer.from(trimmed).toString('base64url') : null;
}

/** Single-use authorization codes, kept until they are used or expire. */
export class AuthorizationCodes<T extends { expiresAt: number }> {
  private readonly codes = new Map<string, T>();

  constructor(private readonly now: () => number) {}

  issue(details: T): string {
    for (const [code, entry] of this.codes) if (entry.expiresAt <= this.now()) this.codes.delete(code);
    const code = crypto.randomBytes(24).toString('base64url');
    this.codes.set(code, details);
    return code;
  }

  /** The code's details while it is unused and unexpired, leaving it unspent. */
  find(code: string | undefined): T | null {
    const entry = code ? this.codes.get(code) : undefined;
    return entry && entry.expiresAt > this.now() ? entry : null;
  }

  /** The code's details once; a second use, or a use after it expired, finds nothing. */
  take(code: string | undefined): T | null {
    const entry = code ? this.codes.get(code) : undefined;
    if (!entry) return null;
    this.codes.delete(code!);
    return entry.expiresAt > this.now() ? entry : null;
  }
}

/** What a consent granted: the code's client, where it may be redeemed, whose account, which scopes. */
export interface ConsentCode {
  client: string;
  redirectUri: string;
  account: string;
  scope: string;
  /** The authorization request's PKCE S256 `code_challenge`, when it sent one. */
  codeChallenge?: string;
  expiresAt: number;
}

/**
 * Whether a token request's `code_verifier` answers the code's PKCE challenge (RFC 7636 §4.6):
 * S256 hashes the verifier, `plain` (which Google still accepts) compares it as it is.
 */
export function pkceVerifies(challenge: string, method: string | undefined, verifier: string | undefined): boolean {
  if (!verifier) return false;
  const expected = method === 'plain' ? verifier : crypto.createHash('sha256').update(verifier).digest('base64url');
  return expected.length === challenge.length && crypto.timingSafeEqual(Buffer.from(expected), Buffer.from(challenge));
}

/**
 * A platform's authorize endpoint (TikTok's and Instagram's differ only in names): GET shows the
 * consent page for a well-formed request, a broken one gets a plain 400; the page's form POSTs
 * back and is answered with a redirect to redirect_uri carrying a single-use code (as `withCode`
 * puts it) or the platform's refusal (`withRefusal`), and `state` as sent.
 */
export function consentEndpoint(options: {
  path: string;
  platform: string;
  /** The request parameter naming the app: TikTok's `client_key`, Instagram's `client_id`. */
  clientField: string;
  /** The request's parameters the form carries back. */
  fields: string[];
  codes: AuthorizationCodes<ConsentCode>;
  now: () => number;
  withCode: (target: URL, code: string, scope: string) => void;
  withRefusal: (target: URL) => void;
}) {
  const problemOf = (params: Record<string, string | undefined>) => {
    if (!params[options.clientField]) return `Missing required parameter: ${options.clientField}`;
    if (!isHttpUrl(params.redirect_uri ?? '')) return 'Invalid parameter value for redirect_uri';
    if (params.response_type !== 'code') return 'Invalid response_type: only "code" is supported';
    if (!params.scope) return 'Missing required parameter: scope';
    // TikTok takes S256 only (Login Kit, PKCE); a platform that takes no PKCE ignores the parameters.
    const pkce = options.fields.includes('code_challenge');
    if (pkce && params.code_challenge !== undefined && params.code_challenge_method !== 'S256')
      return 'Invalid parameter value for code_challenge_method: only "S256" is supported';
    return null;
  };

  return async (app: FastifyInstance) => {
    app.get<PlatformCall>(options.path, async (request, reply) => {
      const query = request.query;
      const problem = problemOf(query);
      if (problem) return badConsentRequest(reply, problem);
      return sendConsentPage(
        reply,
        consentPage({
          platform: options.platform,
          title: 'вхід і дозвіл',
          clientId: query[options.clientField]!,
          scopes: query.scope!.split(','),
          fields: Object.fromEntries(options.fields.map((field) => [field, query[field]])),
        }),
      );
    });

    app.post<PlatformCall>(options.path, async (request, reply) => {
      const form = await readParams(request);
      const problem = problemOf(form);
      if (problem) return badConsentRequest(reply, problem);
      const target = new URL(form.redirect_uri);
      if (form.decision === 'allow') {
        const account = accountOfLogin(form.username);
        if (!account) return badConsentRequest(reply, 'Enter the sandbox account to sign in as');
        const code = options.codes.issue({
          client: form[options.clientField],
          redirectUri: form.redirect_uri,
          account,
          scope: form.scope,
          ...(options.fields.includes('code_challenge') && form.code_challenge ? { codeChallenge: form.code_challenge } : {}),
          expiresAt: options.now() + codeTtlSeconds * 1000,
        });
        options.withCode(target, code, form.scope);
      } else {
        options.withRefusal(target);
      }
      if (form.state !== undefined) target.searchParams.set('state', form.state);
      return reply.redirect(target.toString(), 302);
    });
  };
}
