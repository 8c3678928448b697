import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Platform } from '../platforms/types';
import { accountLabel, countAnsweredCall, readJson, sandboxTokenPrefix } from './common';
import { facebookSandbox } from './facebook/api';
import { facebookOAuthSandbox } from './facebook/oauth';
import { instagramSandbox } from './instagram/api';
import { instagramOAuthSandbox } from './instagram/oauth';
import { tiktokSandbox } from './tiktok/api';
import { tiktokOAuthSandbox } from './tiktok/oauth';
import { youtubeSandbox } from './youtube/api';
import { telegramChatPages, telegramControls, telegramMethods, telegramSandbox } from './telegram';
import { SandboxState, type FaultKind, type FaultStep, type SandboxFault, type SandboxOptions } from './state';

export { SandboxState } from './state';
export type { SandboxFault, SandboxOptions } from './state';
export type { SandboxLimits } from './caps';
export { issueSandboxToken, sandboxTokenPrefix } from './common';

declare module 'fastify' {
  interface FastifyInstance {
    /** Present in sandbox mode only: the emulator's state, fault plan and request log. */
    sandbox?: SandboxState;
  }
}

export const sandboxMount = '/sandbox';

/** The one `_` route that stands in for a platform: what Facebook Login gives a profile's typed Instagram login. */
const instagramLoginRoute = `${sandboxMount}/_instagram/login`;

/**
 * The sandbox's own controls, which inspect and steer the emulator for every user: each route under
 * /sandbox/_ but Instagram's login stand-in, those added beside it (`_sync-stats`, `_check-health`)
 * and any new one. Told by the route matched, never by the URL as sent, which may spell `_` as %5F.
 */
export function isSandboxControl(routeUrl: string | undefined): boolean {
  return routeUrl !== undefined && routeUrl.startsWith(`${sandboxMount}/_`) && routeUrl !== instagramLoginRoute;
}

const platforms: Platform[] = ['youtube', 'tiktok', 'instagram', 'facebook'];
const steps: FaultStep[] = ['init', 'upload', 'status', 'publish', 'list', 'stats', 'profile', 'edit'];
const kinds: FaultKind[] = ['status-429', 'status-500', 'quota', 'unauthorized', 'drop-connection', 'drop-response'];

function parseFault(body: Record<string, any>): SandboxFault | null {
  const faultSteps: string[] = body.platform === 'telegram' ? [...telegramMethods] : steps;
  if (![...platforms, 'telegram'].includes(body.platform) || !faultSteps.includes(body.step) || !kinds.includes(body.kind)) return null;
  const optionalCount = (value: unknown) =>
    value === undefined ? undefined : Number.isInteger(value) && (value as number) >= 0 ? (value as number) : NaN;
  const fault: SandboxFault = {
    platform: body.platform,
    step: body.step,
    kind: body.kind,
    times: optionalCount(body.times),
    retryAfterSeconds: optionalCount(body.retryAfterSeconds),
    afterBytes: optionalCount(body.afterBytes),
  };
  return Object.values(fault).some((value) => Number.isNaN(value)) ? null : fault;
}

/**
 * Mounts the platform emulator under /sandbox, one mirror per real host, so connectors reach it
 * over real HTTP (through the profile's proxy) by swapping only their base URL. Also mounts the
 * sandbox's own controls: `GET|POST|DELETE /sandbox/_faults` (the fault plan),
 * `POST /sandbox/_revoke` ({ platform, account }: the account's key or a name the platform shows
 * for it; 404 for one the sandbox has not met), `GET /sandbox/_posts` (what each platform
 * received, with its settings in the platform's own field names), `GET|DELETE /sandbox/_calls` (calls
 * answered per platform and route, and their reset), `POST /sandbox/_instagram/login`, and
 * Telegram's Bot API with its controls (`/sandbox/_telegram`) and the t.me chat page users open
 * (see ./telegram/).
 *
 * `guardControls` is asked before every control route (`isSandboxControl`) of `app`, the ones
 * mounted beside the sandbox included; the app passes its admin check. What stands in for a
 * platform stays as open as the platform is.
 */
export async function registerSandbox(
  app: FastifyInstance,
  options: SandboxOptions & { state?: SandboxState; guardControls: (request: FastifyRequest, reply: FastifyReply) => Promise<void> },
) {
  const state = options.state ?? new SandboxState(options);
  app.decorate('sandbox', state);
  app.addHook('onRequest', async (request, reply) => {
    if (isSandboxControl(request.routeOptions.url)) await options.guardControls(request, reply);
  });
  const facebook = facebookSandbox(state, sandboxMount);
  const facebookOAuth = facebookOAuthSandbox(state);
  const instagram = instagramSandbox(state, sandboxMount, { tokenPrefix: sandboxTokenPrefix.facebook, read: facebook.object });
  const tiktok = tiktokSandbox(state, sandboxMount);
  const tiktokOAuth = tiktokOAuthSandbox(state);
  const instagramOAuth = instagramOAuthSandbox(state);

  await app.register(
    async (sandbox) => {
      // Handlers read bodies themselves: uploads stream, byte by byte, and fail mid-way on purpose.
      sandbox.removeAllContentTypeParsers();
      sandbox.addContentTypeParser('*', (_request, _payload, done) => done(null));
      sandbox.addHook('onRequest', async (request, reply) => {
        if (!isSandboxControl(request.routeOptions.url)) {
          state.logRequest(request.method, request.url);
          return;
        }
        // A JSON body cannot come from another site's form or simple request without a CORS preflight, which this server never grants.
        const json = /^application\/json\s*(;|$)/i.test(request.headers['content-type'] ?? '');
        if (request.method === 'POST' && !json) return reply.status(415).send({ message: 'Send the control request as application/json' });
      });
      sandbox.addHook('onResponse', async (request) => countAnsweredCall(state, request));

      await sandbox.register(youtubeSandbox(state, sandboxMount), { prefix: '/www.googleapis.com' });
      await sandbox.register(tiktok.api, { prefix: '/open.tiktokapis.com' });
      await sandbox.register(tiktok.upload, { prefix: '/open-upload.tiktokapis.com' });
      await sandbox.register(instagram.graph, { prefix: '/graph.facebook.com' });
      await sandbox.register(instagram.rupload, { prefix: '/rupload.facebook.com' });
      // Facebook's Reels share Instagram's Graph API hosts; Instagram's route for /{version}/{id} hands Facebook's tokens over.
      await sandbox.register(facebook.graph, { prefix: '/graph.facebook.com' });
      await sandbox.register(facebook.rupload, { prefix: '/rupload.facebook.com' });
      await sandbox.register(facebookOAuth.dialog, { prefix: '/www.facebook.com' });
      await sandbox.register(facebookOAuth.token, { prefix: '/graph.facebook.com' });
      await sandbox.register(instagram.login);
      await sandbox.register(tiktokOAuth.authorize, { prefix: '/www.tiktok.com' });
      await sandbox.register(tiktokOAuth.token, { prefix: '/open.tiktokapis.com' });
      await sandbox.register(instagramOAuth.authorize, { prefix: '/www.instagram.com' });
      await sandbox.register(instagramOAuth.api, { prefix: '/api.instagram.com' });
      await sandbox.register(instagramOAuth.graph, { prefix: '/graph.instagram.com' });
      // The Instagram API with Instagram Login serves the same Graph API at graph.instagram.com.
      await sandbox.register(instagramSandbox(state, sandboxMount).graph, { prefix: '/graph.instagram.com' });
      await sandbox.register(telegramSandbox(state.telegram), { prefix: '/api.telegram.org' });
      await sandbox.register(telegramControls(state.telegram));
      await sandbox.register(telegramChatPages(state.telegram, sandboxMount), { prefix: '/t.me' });

      sandbox.get('/_posts', async () => {
        const posts = Object.fromEntries(platforms.map((platform) => [platform, [] as unknown[]]));
        for (const video of state.videos) {
          posts[video.platform].push({
            id: video.id,
            account: accountLabel(video.account),
            url: video.url,
            createdAt: new Date(video.createdAt).toISOString(),
            received: video.options ?? {},
          });
        }
        return { posts };
      });
      sandbox.get('/_calls', async () => ({ calls: state.calls }));
      sandbox.delete('/_calls', async () => {
        state.resetCalls();
        return { calls: state.calls };
      });

      sandbox.get('/_faults', async () => ({ faults: state.faults }));
      sandbox.post('/_faults', async (request, reply) => {
        const fault = parseFault(await readJson(request));
        if (!fault) {
          return reply.status(400).send({
            message: `Expected { platform: ${platforms.join('|')}|telegram, step: ${steps.join('|')} (telegram: ${telegramMethods.join('|')}), kind: ${kinds.join('|')}, times?, retryAfterSeconds?, afterBytes? }`,
          });
        }
        state.faults.push(fault);
        return reply.status(201).send({ faults: state.faults });
      });
      sandbox.delete('/_faults', async () => {
        state.faults.splice(0);
        return { faults: state.faults };
      });
      sandbox.post('/_revoke', async (request, reply) => {
        const body = await readJson(request);
        if (!platforms.includes(body.platform) || typeof body.account !== 'string' || body.account === '') {
          return reply.status(400).send({ message: 'Expected { platform, account }' });
        }
        const account = state.findAccount(body.platform, body.account);
        if (!account) {
          return reply.status(404).send({
            message: `No ${body.platform} account "${body.account}" in the sandbox: give its key or a name ${body.platform} shows for it`,
          });
        }
        state.revoke(body.platform, account);
        return reply.status(204).send();
      });
    },
    { prefix: sandboxMount },
  );
  return state;
}
