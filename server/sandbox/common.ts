import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { t } from '../messages';
import type { Platform } from '../platforms/types';
import { accountLabel } from './account-label';
import { facebookPagesOf } from './facebook/pages';
import type { FaultStep, SandboxFault, SandboxState, UploadSink } from './state';

export { accountLabel };

/**
 * Tokens the emulator accepts: a platform prefix, an account key without dots, then optionally
 * a dot and anything (a nonce, so refreshed tokens differ). Every token of one account reaches
 * the same channel or profile. Whoever issues sandbox tokens (the Google token endpoint, the
 * Instagram sandbox login, an operator typing a TikTok access string) follows this shape.
 */
export const sandboxTokenPrefix: Record<Platform, string> = {
  youtube: 'sandbox-yt-',
  tiktok: 'sandbox-tt-',
  instagram: 'sandbox-ig-',
  facebook: 'sandbox-fb-',
};

/** A fresh token for the account; the account (a login, say) may hold any characters. */
export function issueSandboxToken(platform: Platform, account: string): string {
  const key = Buffer.from(account).toString('base64url');
  return `${sandboxTokenPrefix[platform]}${key}.${crypto.randomBytes(12).toString('base64url')}`;
}

export function accountOfToken(platform: Platform, token: string | null): string | null {
  const prefix = sandboxTokenPrefix[platform];
  if (!token?.startsWith(prefix)) return null;
  const account = token.slice(prefix.length).split('.')[0];
  return account ? account : null;
}

/**
 * The account a request's token reaches, or null once the platform's own refusal is sent: `invalid`
 * for a missing or foreign token, `expired` for one past its lifetime (see tokens.ts), `revoked`
 * for one whose grant was revoked through /sandbox/_revoke (each falls back to `invalid` where the
 * platform does not tell them apart).
 */
export function accountOrRefuse(
  state: SandboxState,
  platform: Platform,
  request: FastifyRequest<PlatformCall>,
  reply: FastifyReply,
  refusals: { invalid: () => PlatformFailure; revoked?: () => PlatformFailure; expired?: () => PlatformFailure },
): string | null {
  const check = state.tokens.checkAccess(platform, tokenOf(request), (account) => state.isRevoked(platform, account));
  if (check.ok) return check.account;
  const refusal = check.reason === 'revoked' ? refusals.revoked : check.reason === 'expired' ? refusals.expired : undefined;
  send(reply, (refusal ?? refusals.invalid)());
  return null;
}

/**
 * A platform's call as the sandbox reads it, with no schema: path and query parameters are the
 * text sent (Fastify's parser gives a repeated one as a list, which no client here sends).
 */
export interface PlatformCall {
  Params: Record<string, string>;
  Querystring: Record<string, string>;
}

/** The access token as each platform takes it: a Bearer or OAuth header, or an access_token parameter. */
export function tokenOf(request: FastifyRequest<PlatformCall>): string | null {
  const header = request.headers.authorization;
  const match = header?.match(/^(?:Bearer|OAuth)\s+(.+)$/i);
  if (match) return match[1].trim();
  const query = request.query;
  return query.access_token ?? null;
}

export function originOf(request: FastifyRequest): string {
  return `${request.protocol}://${request.headers.host}`;
}

export async function readBody(request: FastifyRequest): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request.raw) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A JSON object body; anything else (no body, broken JSON, `null`, an array) reads as no fields. */
export async function readJson(request: FastifyRequest): Promise<Record<string, any>> {
  return parseObject((await readBody(request)).toString('utf8'));
}

function parseObject(text: string): Record<string, any> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, any>) : {};
  } catch {
    return {};
  }
}

/** The access_token a call sent among its parameters, body included, for countAnsweredCall. */
const tokensSent = new WeakMap<FastifyRequest, string>();

/** Query string and form or JSON body together, the way the Graph API reads parameters. */
export async function readParams(request: FastifyRequest<PlatformCall>): Promise<Record<string, string>> {
  const params: Record<string, string> = { ...request.query };
  const body = await readBody(request);
  const type = request.headers['content-type'] ?? '';
  if (body.length > 0 && type.includes('application/json')) Object.assign(params, parseObject(body.toString('utf8')));
  else if (body.length > 0) for (const [key, value] of new URLSearchParams(body.toString('utf8'))) params[key] = value;
  if (typeof params.access_token === 'string') tokensSent.set(request, params.access_token);
  return params;
}

/** Closes the client's connection without an answer, as a crashed or unreachable server would. */
export function dropConnection(request: FastifyRequest, reply: FastifyReply) {
  reply.hijack();
  (request.raw.socket ?? reply.raw.socket)?.destroy();
}

export interface PlatformFailure {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** The answers of one platform to the faults that answer rather than drop. */
export type FaultAnswers = Record<'status-429' | 'status-500' | 'quota' | 'unauthorized', (fault: SandboxFault) => PlatformFailure>;

export function send(reply: FastifyReply, failure: PlatformFailure) {
  return reply
    .status(failure.status)
    .headers(failure.headers ?? {})
    .send(failure.body);
}

/**
 * Takes the planned fault for this request, if any, and answers it when it answers at once.
 * Returns the fault when the route must act on it later (drops during or after the work).
 */
export function faultFor(
  state: SandboxState,
  platform: Platform,
  step: FaultStep,
  answers: FaultAnswers,
  request: FastifyRequest,
  reply: FastifyReply,
): { handled: true } | { handled: false; fault?: SandboxFault } {
  const fault = state.takeFault(platform, step);
  if (!fault) return { handled: false };
  if (fault.kind === 'drop-response') return { handled: false, fault };
  if (fault.kind === 'drop-connection') {
    if (step === 'upload') return { handled: false, fault };
    dropConnection(request, reply);
    return { handled: true };
  }
  send(reply, answers[fault.kind](fault));
  return { handled: true };
}

/**
 * Reads upload bytes into the sink. With `dropAfter` it stops after that many bytes of this
 * request, keeping them, and closes the connection. Refuses bytes beyond the declared size.
 */
export async function receiveBytes(
  state: SandboxState,
  request: FastifyRequest,
  sink: UploadSink,
  dropAfter?: number,
): Promise<'received' | 'dropped' | 'too-long'> {
  try {
    return await takeBytes(state, request, sink, dropAfter);
  } finally {
    state.saveSessions();
  }
}

async function takeBytes(
  state: SandboxState,
  request: FastifyRequest,
  sink: UploadSink,
  dropAfter?: number,
): Promise<'received' | 'dropped' | 'too-long'> {
  let taken = 0;
  // Leaving the loop early detaches the socket from the request, so keep hold of it first.
  const socket = request.raw.socket;
  for await (const data of request.raw) {
    let chunk = data as Buffer;
    if (dropAfter !== undefined && taken + chunk.length >= dropAfter) chunk = chunk.subarray(0, dropAfter - taken);
    if (sink.received + chunk.length > sink.expected) return 'too-long';
    state.append(sink, chunk);
    taken += chunk.length;
    if (dropAfter !== undefined && taken >= dropAfter) {
      socket.destroy();
      return 'dropped';
    }
  }
  return 'received';
}

/** The TikTok handle of a sandbox account: creator_info's creator_username, and its videos' links. */
export function tiktokUsernameOf(account: string): string {
  return `sandbox_${accountLabel(account)
    .toLowerCase()
    .replace(/[^a-z0-9._]/g, '_')}`.slice(0, 24);
}

/** The Instagram username of a sandbox account, as the Graph API's profile answers it. */
export function instagramUsernameOf(account: string): string {
  return accountLabel(account)
    .toLowerCase()
    .replace(/[^a-z0-9._]/g, '_');
}

/**
 * Every name a platform shows for a sandbox account (its label, the channel or profile title, the
 * handle with and without '@', the back office's "connected as"), so a debug endpoint takes
 * whichever one a tester copied.
 */
export function shownNames(platform: Platform, account: string): string[] {
  const label = accountLabel(account);
  if (platform === 'youtube') return [label, t.connections.sandboxAccount(label)];
  if (platform === 'tiktok') {
    const handle = tiktokUsernameOf(account);
    return [label, handle, `@${handle}`, `${label} (@${handle})`];
  }
  if (platform === 'facebook') {
    const pages = facebookPagesOf(account).flatMap((page) => [page.id, page.name, page.username]);
    return [label, t.connections.sandboxAccount(label), ...pages];
  }
  const handle = instagramUsernameOf(account);
  return [label, handle, `@${handle}`, t.connections.sandboxAccount(label)];
}

/** Which platform each mirrored host belongs to. */
const platformOfHost: Record<string, Platform> = {
  'accounts.google.com': 'youtube',
  'oauth2.googleapis.com': 'youtube',
  'www.googleapis.com': 'youtube',
  'www.tiktok.com': 'tiktok',
  'open.tiktokapis.com': 'tiktok',
  'open-upload.tiktokapis.com': 'tiktok',
  'www.instagram.com': 'instagram',
  'api.instagram.com': 'instagram',
  'graph.instagram.com': 'instagram',
  'graph.facebook.com': 'instagram',
  'rupload.facebook.com': 'instagram',
  'www.facebook.com': 'facebook',
};

/** The Graph API hosts whose routes Instagram's sandbox mounts and Facebook's shares. */
const metaSharedHosts = new Set(['graph.facebook.com', 'rupload.facebook.com']);

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The platform a route on a shared host (graph.facebook.com) stands in for, when it is not Instagram. */
    sandboxPlatform?: Platform;
  }
}

/** Marks an operation of a Graph batch request, run inside the sandbox: the batch alone is an HTTP call. */
export const batchOperationHeader = 'x-sandbox-batch-operation';

/**
 * Counts an answered call for GET /sandbox/_calls as `METHOD /host/route`, the route as the sandbox
 * mounts it, under the platform of the host, of the route, or, on a route Instagram and Facebook
 * share (an object read, a batch), of the token the call carries.
 */
export function countAnsweredCall(state: SandboxState, request: FastifyRequest) {
  if (request.headers[batchOperationHeader]) return;
  const route = request.routeOptions.url?.replace(/^\/sandbox/, '') ?? '';
  const host = route.split('/')[1] ?? '';
  const token = tokenOf(request as FastifyRequest<PlatformCall>) ?? tokensSent.get(request);
  const facebookToken = metaSharedHosts.has(host) && token?.startsWith(sandboxTokenPrefix.facebook);
  const platform = request.routeOptions.config?.sandboxPlatform ?? (facebookToken ? 'facebook' : platformOfHost[host]);
  if (platform) state.countCall(platform, `${request.method} ${route}`);
}
