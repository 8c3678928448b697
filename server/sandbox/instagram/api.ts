import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { t } from '../../messages';
import {
  accountLabel,
  instagramUsernameOf,
  accountOfToken,
  accountOrRefuse,
  batchOperationHeader,
  dropConnection,
  type FaultAnswers,
  faultFor,
  issueSandboxToken,
  originOf,
  type PlatformCall,
  type PlatformFailure,
  readBody,
  readJson,
  readParams,
  receiveBytes,
  send,
  tokenOf,
} from '../common';
import { instagramQuotaDurationSeconds } from '../caps';
import { ids, stableId, type SandboxState, type SandboxVideo, type UploadSink } from '../state';

export function graphError(
  status: number,
  code: number,
  message: string,
  extra: { subcode?: number; transient?: boolean; headers?: Record<string, string>; type?: 'OAuthException' | 'GraphMethodException' } = {},
): PlatformFailure {
  return {
    status,
    headers: extra.headers,
    body: {
      error: {
        message,
        type: extra.type ?? (code === 190 ? 'OAuthException' : 'GraphMethodException'),
        code,
        ...(extra.subcode ? { error_subcode: extra.subcode } : {}),
        is_transient: extra.transient ?? false,
        fbtrace_id: crypto.randomBytes(9).toString('base64url'),
      },
    },
  };
}

const answers: FaultAnswers = {
  'status-429': (fault) =>
    graphError(429, 4, 'Application request limit reached', {
      transient: true,
      headers: { 'retry-after': String(fault.retryAfterSeconds ?? 1) },
    }),
  'status-500': () => graphError(500, 2, 'An unexpected error has occurred. Please retry your request later.', { transient: true }),
  quota: () =>
    graphError(400, 9, 'The maximum number of posts allowed for this user within 24 hours has been reached.', {
      subcode: 2207042,
    }),
  unauthorized: () => graphError(400, 190, 'Error validating access token: Session has expired.', { subcode: 463 }),
};

const invalidToken = () => graphError(400, 190, 'Invalid OAuth access token - Cannot parse access token');
const revokedToken = () =>
  graphError(400, 190, 'Error validating access token: The session has been invalidated because the user changed their password.', {
    subcode: 460,
  });
export const expiredToken = () => graphError(400, 190, 'Error validating access token: Session has expired.', { subcode: 463 });
const unknownObject = (id: string) =>
  graphError(
    400,
    100,
    `Unsupported request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
    { subcode: 33 },
  );

export const igUserIdOf = (account: string) => stableId(account, 'ig-user', 17, 'digits');

interface Container extends UploadSink {
  id: string;
  account: string;
  caption: string;
  /** The container's parameters as sent (share_to_feed, thumb_offset, ...), without the token. */
  params: Record<string, string>;
  statusChecksSinceUpload: number;
  media?: SandboxVideo;
}

export const maxGraphBatch = 50;

const reelMetrics = ['views', 'reach', 'likes', 'comments', 'shares', 'saved', 'total_interactions'];

/**
 * The Instagram API with Facebook Login subset for Reels, at /sandbox/graph.facebook.com and
 * /sandbox/rupload.facebook.com: resumable containers, status polling, media_publish, the
 * account's media listing, permalinks and insights. Its sandbox-only login turns a profile's
 * Instagram login and password into the token and account id a live profile gets from Meta.
 */
export function instagramSandbox(
  state: SandboxState,
  mount: string,
  /**
   * Where graph.facebook.com is shared with another Meta platform: its reader of the objects a token
   * of its prefix asks for (Facebook's Reels, see facebook/api.ts).
   */
  sharedObjects?: { tokenPrefix: string; read: (request: FastifyRequest<PlatformCall>, reply: FastifyReply) => Promise<unknown> },
) {
  const containers = state.sessions.instagram as Map<string, Container>;

  const account = (request: FastifyRequest<PlatformCall>, reply: FastifyReply) =>
    accountOrRefuse(state, 'instagram', request, reply, { invalid: invalidToken, revoked: revokedToken, expired: expiredToken });

  const mediaFields = (video: SandboxVideo, fields: string[]) => {
    const all: Record<string, unknown> = {
      id: video.id,
      caption: video.description,
      media_type: 'VIDEO',
      media_product_type: 'REELS',
      permalink: video.url,
      shortcode: video.url.split('/').at(-2),
      timestamp: new Date(video.createdAt).toISOString().replace(/\.\d+Z$/, '+0000'),
      like_count: state.statsOf(video).likes,
      comments_count: state.statsOf(video).comments,
    };
    return Object.fromEntries(['id', ...fields].filter((field) => field in all).map((field) => [field, all[field]]));
  };
  const fieldsOf = (request: FastifyRequest<PlatformCall>) => String(request.query.fields ?? 'id').split(',');

  const graph = async (app: FastifyInstance) => {
    // Graph API "Batch Requests" (developers.facebook.com/docs/graph-api/batch-requests): a POST to
    // the root whose `batch` parameter is a JSON array of {method, relative_url}, "limited to 50
    // requests per batch"; the answer is an array, in order, of {code, headers, body} with each body
    // a JSON-encoded string. Each operation runs as its own call (with the batch's token), so it
    // meets the same faults and refusals; the batch is one HTTP request in GET /sandbox/_calls. An
    // operation whose relative_url names its own access_token uses that one, as Meta's batches do, so
    // one batch may read Instagram's media and Facebook's Reels together. Posted to a version
    // (/v22.0/), an operation's relative_url without one is read under it.
    const batch = async (request: FastifyRequest<PlatformCall>, reply: FastifyReply) => {
      const params = await readParams(request);
      let operations: unknown;
      try {
        operations = JSON.parse(params.batch ?? '');
      } catch {
        operations = null;
      }
      if (!Array.isArray(operations) || operations.length === 0) {
        return send(reply, graphError(400, 100, 'The parameter batch is required and must be a non-empty JSON array'));
      }
      if (operations.length > maxGraphBatch) {
        return send(reply, graphError(400, 1, `Too many requests in batch message. Maximum batch size is ${maxGraphBatch}`));
      }
      const token = params.access_token ?? tokenOf(request);
      const batchPath = request.url.split('?')[0]!.replace(/\/$/, '');
      const hostRoot = batchPath.replace(/\/v\d+\.\d+$/, '');
      const results = [];
      for (const operation of operations as { method?: string; relative_url?: string }[]) {
        const relative = String(operation.relative_url ?? '').replace(/^\//, '');
        const ownToken = new URLSearchParams(relative.split('?')[1] ?? '').has('access_token');
        const answer = await app.inject({
          method: operation.method === 'POST' ? 'POST' : 'GET',
          url: `${/^v\d+\.\d+\//.test(relative) ? hostRoot : batchPath}/${relative}`,
          headers: {
            host: request.headers.host ?? '',
            [batchOperationHeader]: '1',
            ...(token && !ownToken ? { authorization: `Bearer ${token}` } : {}),
          },
        });
        results.push({
          code: answer.statusCode,
          headers: [{ name: 'Content-Type', value: String(answer.headers['content-type'] ?? 'application/json') }],
          body: answer.body,
        });
      }
      return reply.send(results);
    };
    app.post<PlatformCall>('/', batch);
    app.post<PlatformCall>('/:version', batch);
    app.post<PlatformCall>('/:version/', batch);

    app.get<PlatformCall>('/:version/:id', async (request, reply) => {
      if (sharedObjects && tokenOf(request)?.startsWith(sharedObjects.tokenPrefix)) return sharedObjects.read(request, reply);
      const accountKey = account(request, reply);
      if (!accountKey) return reply;
      // graph.instagram.com answers /me for the token's own account (Instagram API with Instagram Login).
      const { id: asked } = request.params;
      const id = asked === 'me' ? igUserIdOf(accountKey) : asked;
      const fields = fieldsOf(request);
      const container = containers.get(id);
      const media = state.videos.find((video) => video.platform === 'instagram' && video.id === id);
      const step = container ? 'status' : media ? 'list' : 'profile';
      const fault = faultFor(state, 'instagram', step, answers, request, reply);
      if (fault.handled) return reply;

      if (id === igUserIdOf(accountKey)) {
        const all: Record<string, unknown> = {
          id,
          username: instagramUsernameOf(accountKey),
          name: t.connections.sandboxAccount(accountLabel(accountKey)),
          biography: '',
          media_count: state.videosOf('instagram', accountKey).length,
        };
        return reply.send(Object.fromEntries(['id', ...fields].filter((field) => field in all).map((field) => [field, all[field]])));
      }
      if (container && container.account === accountKey) {
        let statusCode: string;
        if (container.media) statusCode = 'PUBLISHED';
        else if (container.received < container.expected || container.statusChecksSinceUpload++ === 0) statusCode = 'IN_PROGRESS';
        else statusCode = 'FINISHED';
        return reply.send({
          id,
          status_code: statusCode,
          status: statusCode === 'IN_PROGRESS' ? 'In Progress' : statusCode === 'FINISHED' ? 'Finished' : 'Published',
        });
      }
      if (media && media.account === accountKey) return reply.send(mediaFields(media, fields));
      return send(reply, unknownObject(id));
    });

    app.post<PlatformCall>('/:version/:igUserId/media', async (request, reply) => {
      const accountKey = account(request, reply);
      if (!accountKey) return reply;
      const { igUserId } = request.params;
      if (igUserId !== igUserIdOf(accountKey)) return send(reply, unknownObject(igUserId));
      const fault = faultFor(state, 'instagram', 'init', answers, request, reply);
      if (fault.handled) return reply;
      const params = await readParams(request);
      if (params.media_type !== 'REELS' || params.upload_type !== 'resumable') {
        return send(reply, graphError(400, 100, 'The sandbox takes media_type=REELS with upload_type=resumable only.'));
      }
      const container: Container = {
        ...state.newSink(0),
        id: ids.digits(17),
        account: accountKey,
        caption: params.caption ?? '',
        params: Object.fromEntries(Object.entries(params).filter(([key]) => key !== 'access_token')),
        statusChecksSinceUpload: 0,
      };
      containers.set(container.id, container);
      state.saveSessions();
      if (fault.fault) return dropConnection(request, reply);
      const version = request.params.version;
      return reply.send({
        id: container.id,
        uri: `${originOf(request)}${mount}/rupload.facebook.com/ig-api-upload/${version}/${container.id}`,
      });
    });

    app.post<PlatformCall>('/:version/:igUserId/media_publish', async (request, reply) => {
      const accountKey = account(request, reply);
      if (!accountKey) return reply;
      const { igUserId } = request.params;
      if (igUserId !== igUserIdOf(accountKey)) return send(reply, unknownObject(igUserId));
      const fault = faultFor(state, 'instagram', 'publish', answers, request, reply);
      if (fault.handled) return reply;
      const params = await readParams(request);
      const container = containers.get(params.creation_id ?? '');
      if (!container || container.account !== accountKey) return send(reply, unknownObject(params.creation_id ?? ''));
      if (container.media) return send(reply, graphError(400, 9007, 'The media has already been published.', { subcode: 2207027 }));
      if (container.received < container.expected || container.expected === 0 || container.statusChecksSinceUpload === 0) {
        return send(reply, graphError(400, 9007, 'Media ID is not available', { subcode: 2207027 }));
      }
      if (!state.caps.instagramPost(accountKey))
        return send(reply, answers.quota({ platform: 'instagram', step: 'publish', kind: 'quota' }));
      const code = ids.shortcode();
      container.media = {
        platform: 'instagram',
        id: ids.digits(17),
        account: accountKey,
        title: container.caption,
        description: container.caption,
        tags: [],
        bytes: container.received,
        sha256: state.digest(container),
        createdAt: state.now(),
        url: `https://www.instagram.com/reel/${code}/`,
        options: container.params,
      };
      state.addVideo(container.media);
      if (fault.fault) return dropConnection(request, reply);
      return reply.send({ id: container.media.id });
    });

    app.get<PlatformCall>('/:version/:igUserId/media', async (request, reply) => {
      const accountKey = account(request, reply);
      if (!accountKey) return reply;
      const { igUserId } = request.params;
      if (igUserId !== igUserIdOf(accountKey)) return send(reply, unknownObject(igUserId));
      const fault = faultFor(state, 'instagram', 'list', answers, request, reply);
      if (fault.handled) return reply;
      const query = request.query;
      const limit = Math.min(100, Number(query.limit ?? 25));
      const offset = query.after ? Number(Buffer.from(query.after, 'base64url').toString()) : 0;
      const media = state.videosOf('instagram', accountKey).reverse();
      const page = media.slice(offset, offset + limit);
      const after = Buffer.from(String(offset + page.length)).toString('base64url');
      return reply.send({
        data: page.map((video) => mediaFields(video, fieldsOf(request))),
        paging: {
          cursors: { before: Buffer.from(String(offset)).toString('base64url'), after },
          ...(offset + limit < media.length ? { next: `?after=${after}` } : {}),
        },
      });
    });

    // "IG User Content Publishing Limit": posts published within the moving 24 hours, and the cap.
    app.get<PlatformCall>('/:version/:igUserId/content_publishing_limit', async (request, reply) => {
      const accountKey = account(request, reply);
      if (!accountKey) return reply;
      const { igUserId } = request.params;
      if (igUserId !== igUserIdOf(accountKey) && igUserId !== 'me') return send(reply, unknownObject(igUserId));
      const fields = String(request.query.fields ?? 'quota_usage').split(',');
      const entry: Record<string, unknown> = { quota_usage: state.caps.instagramUsage(accountKey) };
      if (fields.includes('config') || fields.includes('rate_limit_settings')) {
        entry.config = { quota_total: state.caps.limits.instagramDailyPosts, quota_duration: instagramQuotaDurationSeconds };
      }
      return reply.send({ data: [entry] });
    });

    app.get<PlatformCall>('/:version/:mediaId/insights', async (request, reply) => {
      const accountKey = account(request, reply);
      if (!accountKey) return reply;
      const fault = faultFor(state, 'instagram', 'stats', answers, request, reply);
      if (fault.handled) return reply;
      const { mediaId } = request.params;
      const found = state.findVideo('instagram', mediaId);
      const media = found?.account === accountKey ? found : undefined;
      if (!media) return send(reply, unknownObject(mediaId));
      const metrics = String(request.query.metric ?? '').split(',');
      const unknown = metrics.find((metric) => !reelMetrics.includes(metric));
      if (unknown !== undefined) {
        return send(
          reply,
          graphError(400, 100, `(#100) metric[${metrics.indexOf(unknown)}] must be one of the following values: ${reelMetrics.join(', ')}`),
        );
      }
      const stats = state.statsOf(media);
      const values: Record<string, number> = {
        views: stats.views,
        reach: Math.floor(stats.views * 0.8),
        likes: stats.likes,
        comments: stats.comments,
        shares: 0,
        saved: 0,
        total_interactions: stats.likes + stats.comments,
      };
      return reply.send({
        data: metrics.map((name) => ({
          name,
          period: 'lifetime',
          values: [{ value: values[name] }],
          title: name,
          id: `${mediaId}/insights/${name}/lifetime`,
        })),
      });
    });
  };

  const rupload = async (app: FastifyInstance) => {
    app.post<PlatformCall>('/ig-api-upload/:version/:containerId', async (request, reply) => {
      const accountKey = account(request, reply);
      if (!accountKey) return reply;
      const { containerId } = request.params;
      const container = containers.get(containerId);
      if (!container || container.account !== accountKey) {
        return reply.status(400).send({ debug_info: { retriable: false, type: 'ProcessingFailedError', message: 'Unknown container.' } });
      }
      const fault = faultFor(state, 'instagram', 'upload', answers, request, reply);
      if (fault.handled) return reply;
      const offset = Number(request.headers.offset ?? 0);
      const size = Number(request.headers.file_size);
      if (!Number.isInteger(size) || size <= 0) {
        return reply.status(400).send({
          debug_info: { retriable: false, type: 'BadRequestError', message: 'The file_size header is required.' },
        });
      }
      if (container.received === container.expected && container.expected > 0) {
        await readBody(request);
        return reply.send({ success: true, message: 'Upload successful.' });
      }
      if (offset === 0 || container.expected !== size) {
        state.truncate(container, 0);
        container.expected = size;
      }
      if (offset !== container.received) {
        reply.header('connection', 'close');
        return reply.status(400).send({
          debug_info: {
            retriable: true,
            type: 'ProcessingFailedError',
            message: `Expected offset ${container.received}.`,
          },
        });
      }
      const dropAfter = fault.fault?.kind === 'drop-connection' ? (fault.fault.afterBytes ?? Math.floor((size - offset) / 2)) : undefined;
      const outcome = await receiveBytes(state, request, container, dropAfter);
      if (outcome === 'dropped') return dropConnection(request, reply);
      if (outcome === 'too-long' || container.received !== container.expected) {
        reply.header('connection', 'close');
        return reply.status(400).send({
          debug_info: {
            retriable: true,
            type: 'ProcessingFailedError',
            message: `Received ${container.received} of ${size} bytes.`,
          },
        });
      }
      if (fault.fault) return dropConnection(request, reply);
      return reply.send({ success: true, message: 'Upload successful.' });
    });
  };

  /** Sandbox-only: what Facebook Login gives a live profile, from the profile's Instagram login. */
  const login = async (app: FastifyInstance) => {
    app.post<PlatformCall>('/_instagram/login', async (request, reply) => {
      const body = await readJson(request);
      const login = typeof body.login === 'string' ? body.login.trim() : '';
      if (!login || typeof body.password !== 'string' || body.password === '') {
        return send(reply, graphError(400, 100, 'login and password are required.'));
      }
      const accessToken = issueSandboxToken('instagram', login);
      return reply.send({
        access_token: accessToken,
        ig_user_id: igUserIdOf(accountOfToken('instagram', accessToken)!),
      });
    });
  };

  return { graph, rupload, login };
}
