import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  dropConnection,
  type FaultAnswers,
  faultFor,
  originOf,
  type PlatformCall,
  type PlatformFailure,
  readParams,
  receiveBytes,
  sandboxTokenPrefix,
  send,
  tokenOf,
} from '../common';
import { graphError } from '../instagram/api';
import { type FacebookPage, facebookPagesOf } from './pages';
import { ids, type SandboxState, type SandboxVideo, type UploadSink } from '../state';
import type { TokenKind } from '../tokens';

/** Meta's error shape, `{ error: { message, type, code, error_subcode?, fbtrace_id } }`, as Facebook types its errors. */
export const facebookError = (
  status: number,
  code: number,
  message: string,
  extra: { subcode?: number; headers?: Record<string, string> } = {},
) => graphError(status, code, message, { ...extra, transient: status >= 500 || code === 4, type: 'OAuthException' });

export const invalidToken = () => facebookError(400, 190, 'Invalid OAuth access token - Cannot parse access token');
export const expiredToken = () => facebookError(400, 190, 'Error validating access token: Session has expired.', { subcode: 463 });
export const revokedToken = () =>
  facebookError(400, 190, 'Error validating access token: The user has not authorized application.', { subcode: 458 });

const reelsCapReached = (limit: number) =>
  facebookError(400, 32, `The Page has reached the limit of ${limit} API-published reels in 24 hours`);

const unknownObject = (method: string, id: string) =>
  graphError(
    400,
    100,
    `Unsupported ${method.toLowerCase()} request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
    { subcode: 33, type: 'GraphMethodException' },
  );

const pageTokenNeeded = () =>
  facebookError(400, 200, '(#200) This call needs the Page access token of a Page the person may create content on.');

/** rupload's own refusals: `{ debug_info: { type, message, retriable } }`. */
const uploadRefusal = (type: string, message: string): PlatformFailure => ({
  status: 400,
  headers: { connection: 'close' },
  body: { debug_info: { type, message, retriable: false } },
});

const metrics = ['blue_reels_play_count', 'post_video_likes_by_reaction_type', 'post_video_social_actions'];

/** A Reel from upload_phase=start on: its bytes (see UploadSink), its Page, and how far processing went. */
interface Reel extends UploadSink {
  id: string;
  person: string;
  pageId: string;
  /** When upload_phase=finish published it; the video of the same id is then in the state's videos. */
  finishedAt?: number;
  /** Status reads since finish: the first finds processing under way, the next one done. */
  statusReadsSinceFinish: number;
}

/** Whom a token speaks for: a person, and the Page when it is a Page token. */
interface Caller {
  person: string;
  /** The Page a Page token names; null for a User token. */
  pageId: string | null;
  /** What the token reaches: its own Page, or the Pages the person granted the app. */
  pages: FacebookPage[];
  /** The grant behind the token, null for a token of the sandbox's shape issued elsewhere. */
  grant: string | null;
  kind: TokenKind | null;
  expiresAt: number | null;
}

const isoSeconds = (at: number) => new Date(at).toISOString().replace(/\.\d+Z$/, '+0000');

/** Routes on a host Facebook shares with Instagram count as Facebook's calls in GET /sandbox/_calls. */
export const asFacebookRoutes = (app: FastifyInstance) =>
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, sandboxPlatform: 'facebook' };
  });

/**
 * Facebook Reels on Pages (Reels Publishing API, Graph API v22.0) at /sandbox/graph.facebook.com
 * and /sandbox/rupload.facebook.com, beside Instagram's routes there:
 * - GET /{version}/me/accounts with a User token: the Pages granted in the dialog, each with its
 *   Page token and the person's tasks on it;
 * - GET /{version}/{page-id} (id, name, link) and /{version}/{video-id} (status), through `object`,
 *   which Instagram's route for the same path hands a Facebook token to;
 * - GET|POST /{version}/{page-id}/video_reels: the Page's Reels, and upload_phase start and finish;
 * - POST rupload /video-upload/{version}/{video-id}: the bytes, from the `offset` header on;
 * - GET /{version}/{video-id}/video_insights: plays, reactions and social actions.
 * A Page token names its person and its Page: `sandbox-fb-<person>.<page-id>.<nonce>`; a User
 * token has no Page: `sandbox-fb-<person>.<nonce>`.
 */
export function facebookSandbox(state: SandboxState, mount: string) {
  const reels = state.sessions.facebook as Map<string, Reel>;

  const answers: FaultAnswers = {
    'status-429': (fault) =>
      facebookError(429, 4, 'Application request limit reached', { headers: { 'retry-after': String(fault.retryAfterSeconds ?? 1) } }),
    'status-500': () => facebookError(500, 2, 'An unexpected error has occurred. Please retry your request later.'),
    quota: () => reelsCapReached(state.caps.limits.facebookDailyReels),
    unauthorized: expiredToken,
  };

  /** The caller a token names, or null once Meta's refusal is sent. */
  const callerOrRefuse = (token: string | null, reply: FastifyReply): Caller | null => {
    const check = state.tokens.checkAccess('facebook', token, (person) => state.isRevoked('facebook', person));
    if (!check.ok) {
      send(reply, check.reason === 'revoked' ? revokedToken() : check.reason === 'expired' ? expiredToken() : invalidToken());
      return null;
    }
    const own = facebookPagesOf(check.account);
    const named = token!.slice(sandboxTokenPrefix.facebook.length).split('.');
    const caller = { person: check.account, grant: check.grant, kind: check.kind, expiresAt: check.expiresAt };
    if (named.length === 3) {
      const page = own.find((candidate) => candidate.id === named[1]);
      if (!page) {
        send(reply, invalidToken());
        return null;
      }
      return { ...caller, pageId: page.id, pages: [page] };
    }
    const granted = check.grant ? state.tokens.grant(check.grant)?.pages : undefined;
    return { ...caller, pageId: null, pages: granted ? own.filter((page) => granted.includes(page.id)) : own };
  };

  /** The Page a Page token may publish to, or null once the refusal is sent. */
  const publishingPage = (caller: Caller, pageId: string, method: string, reply: FastifyReply): FacebookPage | null => {
    const page = caller.pages.find((candidate) => candidate.id === pageId);
    if (!page) send(reply, unknownObject(method, pageId));
    else if (caller.pageId !== pageId || !page.tasks.includes('CREATE_CONTENT')) send(reply, pageTokenNeeded());
    else return page;
    return null;
  };

  const reelOf = (caller: Caller, id: string) => {
    const reel = reels.get(id);
    return reel && reel.person === caller.person && caller.pages.some((page) => page.id === reel.pageId) ? reel : undefined;
  };

  const statusOf = (reel: Reel) => {
    const uploaded = reel.expected > 0 && reel.received === reel.expected;
    const uploadingPhase = {
      status: uploaded ? 'complete' : reel.received > 0 ? 'in_progress' : 'not_started',
      bytes_transferred: reel.received,
    };
    if (reel.finishedAt === undefined) {
      return {
        video_status: uploaded ? 'upload_complete' : 'processing',
        uploading_phase: uploadingPhase,
        processing_phase: { status: 'not_started' },
        publishing_phase: { status: 'not_started', publish_status: 'not_published' },
      };
    }
    if (reel.statusReadsSinceFinish <= 1) {
      return {
        video_status: 'processing',
        uploading_phase: uploadingPhase,
        processing_phase: { status: 'in_progress' },
        publishing_phase: { status: 'not_started', publish_status: 'not_published' },
      };
    }
    return {
      video_status: 'ready',
      uploading_phase: uploadingPhase,
      processing_phase: { status: 'complete' },
      publishing_phase: { status: 'complete', publish_status: 'published', publish_time: isoSeconds(reel.finishedAt) },
    };
  };

  const reelsOfPage = (pageId: string) =>
    state.videos.filter((video) => video.platform === 'facebook' && video.options?.page_id === pageId).reverse();

  const pick = (all: Record<string, unknown>, fields: string) =>
    Object.fromEntries(['id', ...fields.split(',')].filter((field) => field in all).map((field) => [field, all[field]]));

  const reelFields = (video: SandboxVideo) => ({ id: video.id, description: video.description, created_time: isoSeconds(video.createdAt) });

  /** GET /{version}/{id} with a Facebook token: a Page (the `profile` step) or a Reel's status (the `status` step). */
  const object = async (request: FastifyRequest<PlatformCall>, reply: FastifyReply) => {
    const caller = callerOrRefuse(tokenOf(request), reply);
    if (!caller) return reply;
    const { id } = request.params;
    const fields = request.query.fields ?? 'id';
    const page = caller.pages.find((candidate) => candidate.id === id);
    const reel = reelOf(caller, id);
    if (!page && !reel) return send(reply, unknownObject('GET', id));
    const fault = faultFor(state, 'facebook', page ? 'profile' : 'status', answers, request, reply);
    if (fault.handled) return reply;
    let answer: Record<string, unknown>;
    if (page) {
      answer = pick({ id, name: page.name, link: `https://www.facebook.com/${page.username}` }, fields);
    } else {
      if (reel!.finishedAt !== undefined) reel!.statusReadsSinceFinish += 1;
      state.saveSessions();
      const video = state.findVideo('facebook', id);
      answer = pick({ id, status: statusOf(reel!), ...(video ? { description: video.description } : {}) }, fields);
    }
    if (fault.fault) return dropConnection(request, reply);
    return reply.send(answer);
  };

  const graph = async (app: FastifyInstance) => {
    asFacebookRoutes(app);

    // Graph API "/me/accounts" (Page access tokens): with a long-lived User token, Page tokens that do not expire.
    app.get<PlatformCall>('/:version/me/accounts', async (request, reply) => {
      const caller = callerOrRefuse(tokenOf(request), reply);
      if (!caller) return reply;
      if (caller.pageId)
        return send(reply, facebookError(400, 100, '(#100) Tried accessing nonexisting field (accounts) on node type (Page)'));
      const grant = caller.grant ?? state.tokens.liveGrant('facebook', caller.person);
      const lifetime = caller.kind === 'access' ? Math.max(0, Math.floor((caller.expiresAt! - state.now()) / 1000)) : null;
      const fields = request.query.fields ?? 'id,name,access_token,tasks';
      const data = caller.pages.map((page) =>
        pick(
          {
            id: page.id,
            name: page.name,
            access_token: state.tokens.issue('facebook', grant, 'page', lifetime, page.id),
            tasks: page.tasks,
          },
          fields,
        ),
      );
      const cursor = (position: number) => Buffer.from(String(position)).toString('base64url');
      return reply.send({ data, paging: { cursors: { before: cursor(0), after: cursor(data.length) } } });
    });

    app.get<PlatformCall>('/:version/:pageId/video_reels', async (request, reply) => {
      const caller = callerOrRefuse(tokenOf(request), reply);
      if (!caller) return reply;
      const { pageId } = request.params;
      if (!caller.pages.some((page) => page.id === pageId)) return send(reply, unknownObject('GET', pageId));
      const fault = faultFor(state, 'facebook', 'list', answers, request, reply);
      if (fault.handled) return reply;
      const query = request.query;
      const limit = Math.min(100, Number(query.limit ?? 25));
      const offset = query.after ? Number(Buffer.from(query.after, 'base64url').toString()) : 0;
      const all = reelsOfPage(pageId);
      const shown = all.slice(offset, offset + limit);
      const after = Buffer.from(String(offset + shown.length)).toString('base64url');
      if (fault.fault) return dropConnection(request, reply);
      return reply.send({
        data: shown.map((video) => pick(reelFields(video), query.fields ?? 'id')),
        paging: {
          cursors: { before: Buffer.from(String(offset)).toString('base64url'), after },
          ...(offset + limit < all.length ? { next: `?after=${after}` } : {}),
        },
      });
    });

    // Reels Publishing API: upload_phase=start opens a Reel, finish publishes it. The cap of Reels
    // published within a moving 24 hours is "enforced on the POST /{page_id}/video_reels endpoint":
    // a start is refused once the Page is at the cap, and so is a finish that would pass it.
    app.post<PlatformCall>('/:version/:pageId/video_reels', async (request, reply) => {
      const params = await readParams(request);
      const caller = callerOrRefuse(tokenOf(request) ?? params.access_token ?? null, reply);
      if (!caller) return reply;
      const { pageId, version } = request.params;
      if (!publishingPage(caller, pageId, 'POST', reply)) return reply;
      if (params.upload_phase === 'start') {
        const fault = faultFor(state, 'facebook', 'init', answers, request, reply);
        if (fault.handled) return reply;
        if (state.caps.facebookReelsUsage(pageId) >= state.caps.limits.facebookDailyReels) {
          return send(reply, reelsCapReached(state.caps.limits.facebookDailyReels));
        }
        const reel: Reel = { ...state.newSink(0), id: ids.digits(16), person: caller.person, pageId, statusReadsSinceFinish: 0 };
        reels.set(reel.id, reel);
        state.saveSessions();
        if (fault.fault) return dropConnection(request, reply);
        return reply.send({
          video_id: reel.id,
          upload_url: `${originOf(request)}${mount}/rupload.facebook.com/video-upload/${version}/${reel.id}`,
        });
      }
      if (params.upload_phase !== 'finish') {
        return send(reply, facebookError(400, 100, '(#100) upload_phase must be one of the following values: start, finish'));
      }
      const fault = faultFor(state, 'facebook', 'publish', answers, request, reply);
      if (fault.handled) return reply;
      const reel = reelOf(caller, params.video_id ?? '');
      if (!reel || reel.pageId !== pageId) return send(reply, facebookError(400, 100, '(#100) Invalid video_id'));
      if (params.video_state !== 'PUBLISHED') {
        return send(reply, facebookError(400, 100, '(#100) The sandbox publishes with video_state=PUBLISHED only'));
      }
      if (reel.finishedAt === undefined) {
        if (reel.expected === 0 || reel.received !== reel.expected) {
          return send(
            reply,
            facebookError(400, 100, `(#100) The video upload is not complete: ${reel.received} of ${reel.expected} bytes`),
          );
        }
        if (!state.caps.facebookReel(pageId)) return send(reply, reelsCapReached(state.caps.limits.facebookDailyReels));
        reel.finishedAt = state.now();
        const received = Object.fromEntries(Object.entries(params).filter(([key]) => !['access_token', 'upload_phase'].includes(key)));
        state.addVideo({
          platform: 'facebook',
          id: reel.id,
          account: reel.person,
          title: '',
          description: params.description ?? '',
          tags: [],
          bytes: reel.received,
          sha256: state.digest(reel),
          createdAt: reel.finishedAt,
          url: `https://www.facebook.com/reel/${reel.id}`,
          options: { ...received, page_id: pageId, bytes: reel.received },
        });
        state.saveSessions();
      }
      if (fault.fault) return dropConnection(request, reply);
      return reply.send({ success: true });
    });

    app.get<PlatformCall>('/:version/:videoId/video_insights', async (request, reply) => {
      const caller = callerOrRefuse(tokenOf(request), reply);
      if (!caller) return reply;
      const { videoId } = request.params;
      const video = reelOf(caller, videoId) && state.findVideo('facebook', videoId);
      if (!video) return send(reply, unknownObject('GET', videoId));
      const fault = faultFor(state, 'facebook', 'stats', answers, request, reply);
      if (fault.handled) return reply;
      const asked = request.query.metric ? request.query.metric.split(',') : metrics;
      const unknown = asked.find((metric) => !metrics.includes(metric));
      if (unknown !== undefined) {
        return send(reply, facebookError(400, 100, `(#100) The value must be a valid insights metric: ${unknown}`));
      }
      const stats = state.statsOf(video);
      const loves = Math.floor(stats.likes / 5);
      const values: Record<string, unknown> = {
        blue_reels_play_count: stats.views,
        post_video_likes_by_reaction_type: { REACTION_LIKE: stats.likes - loves, REACTION_LOVE: loves },
        post_video_social_actions: { COMMENT: stats.comments, SHARE: Math.floor(stats.views / 200) },
      };
      if (fault.fault) return dropConnection(request, reply);
      return reply.send({
        data: asked.map((name) => ({
          name,
          period: 'lifetime',
          values: [{ value: values[name] }],
          title: name,
          id: `${videoId}/video_insights/${name}/lifetime`,
        })),
      });
    });
  };

  // The upload host's own protocol ("Reels Publishing API", step 2): headers `offset` (the bytes the
  // server already holds) and `file_size`; the body carries the bytes from the offset on, and may
  // stop short, so a client sends the file in pieces or resumes at status.uploading_phase.bytes_transferred.
  const rupload = async (app: FastifyInstance) => {
    asFacebookRoutes(app);

    app.post<PlatformCall>('/video-upload/:version/:videoId', async (request, reply) => {
      const caller = callerOrRefuse(tokenOf(request), reply);
      if (!caller) return reply;
      const reel = reelOf(caller, request.params.videoId);
      if (!reel) return send(reply, uploadRefusal('ProcessingFailedError', 'Unknown video id.'));
      if (caller.pageId !== reel.pageId) return send(reply, pageTokenNeeded());
      const fault = faultFor(state, 'facebook', 'upload', answers, request, reply);
      if (fault.handled) return reply;
      const headerNumber = (name: 'offset' | 'file_size') => {
        const text = String(request.headers[name] ?? '');
        return /^\d+$/.test(text) ? Number(text) : null;
      };
      const offset = headerNumber('offset');
      const size = headerNumber('file_size');
      if (offset === null) {
        return send(
          reply,
          uploadRefusal('ParameterValidationError', 'HeaderValuePredicate: Header Offset not convertable to unsigned long'),
        );
      }
      if (size === null || size === 0) {
        return send(
          reply,
          uploadRefusal('ParameterValidationError', 'HeaderValuePredicate: Header file_size not convertable to unsigned long'),
        );
      }
      if (reel.received === 0) reel.expected = size;
      if (size !== reel.expected) {
        return send(
          reply,
          uploadRefusal('ParameterValidationError', `file_size ${size} differs from the ${reel.expected} bytes this upload began with.`),
        );
      }
      if (offset !== reel.received) {
        return send(reply, uploadRefusal('OffsetInvalidError', `Offset ${offset} is not the ${reel.received} bytes received so far.`));
      }
      const dropAfter = fault.fault?.kind === 'drop-connection' ? (fault.fault.afterBytes ?? Math.floor((size - offset) / 2)) : undefined;
      const outcome = await receiveBytes(state, request, reel, dropAfter);
      if (outcome === 'dropped') return dropConnection(request, reply);
      if (outcome === 'too-long') {
        return send(reply, uploadRefusal('BadRequestError', `More bytes than file_size ${size}: ${reel.received} kept.`));
      }
      if (fault.fault) return dropConnection(request, reply);
      return reply.send({ success: true });
    });
  };

  return { graph, rupload, object };
}
