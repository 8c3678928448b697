import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  accountLabel,
  tiktokUsernameOf,
  accountOrRefuse,
  dropConnection,
  type FaultAnswers,
  faultFor,
  originOf,
  type PlatformCall,
  type PlatformFailure,
  readBody,
  readJson,
  receiveBytes,
  send,
  tokenOf,
} from '../common';
import { ids, type SandboxState, type SandboxVideo, type UploadSink } from '../state';
import { creatorSettings } from './creator';

const MB = 1024 * 1024;

function tiktokError(status: number, code: string, message: string, headers?: Record<string, string>): PlatformFailure {
  return { status, headers, body: { data: {}, error: { code, message, log_id: logId() } } };
}

const logId = () => crypto.randomBytes(16).toString('hex').toUpperCase();
export const maxVideoIdsPerQuery = 20;

const ok = (data: unknown) => ({ data, error: { code: 'ok', message: '', log_id: logId() } });

const answers: FaultAnswers = {
  'status-429': (fault) =>
    tiktokError(429, 'rate_limit_exceeded', 'API rate limit was exceeded, please try again later.', {
      'retry-after': String(fault.retryAfterSeconds ?? 1),
    }),
  'status-500': () => tiktokError(500, 'internal_error', 'Something went wrong on TikTok’s side. Please try again later.'),
  quota: () => tiktokError(403, 'spam_risk_too_many_posts', 'The daily post cap of the user has been reached.'),
  unauthorized: () => invalidToken(),
};

function invalidToken() {
  return tiktokError(401, 'access_token_invalid', 'The access token is invalid or not found in the request.');
}

interface Publish extends UploadSink {
  id: string;
  account: string;
  caption: string;
  postInfo: Record<string, unknown>;
  chunkSize: number;
  totalChunks: number;
  uploadToken: string;
  statusChecksSinceUpload: number;
  video?: SandboxVideo;
}

/**
 * The TikTok Content Posting API (direct post, FILE_UPLOAD) and the Display API video endpoints
 * the connector uses, at /sandbox/open.tiktokapis.com and /sandbox/open-upload.tiktokapis.com,
 * with TikTok's chunk rules: chunks of 5–64 MB, total_chunk_count = floor(size / chunk_size),
 * the last chunk carrying the remainder, a file under 5 MB sent whole.
 */
export function tiktokSandbox(state: SandboxState, mount: string) {
  const publishes = state.sessions.tiktok as Map<string, Publish>;

  const account = (request: FastifyRequest<PlatformCall>, reply: FastifyReply) =>
    accountOrRefuse(state, 'tiktok', request, reply, { invalid: invalidToken });

  const videoFields = (video: SandboxVideo, fields: string[]) => {
    const stats = state.statsOf(video);
    const all: Record<string, unknown> = {
      id: video.id,
      create_time: Math.floor(video.createdAt / 1000),
      title: video.title,
      video_description: video.title,
      share_url: video.url,
      duration: 15,
      view_count: stats.views,
      like_count: stats.likes,
      comment_count: stats.comments,
      share_count: 0,
    };
    return Object.fromEntries(fields.filter((field) => field in all).map((field) => [field, all[field]]));
  };
  const fieldsOf = (request: FastifyRequest<PlatformCall>) => String(request.query.fields ?? 'id').split(',');

  const api = async (app: FastifyInstance) => {
    app.post<PlatformCall>('/v2/post/publish/creator_info/query/', async (request, reply) => {
      const accountKey = account(request, reply);
      if (!accountKey) return reply;
      const fault = faultFor(state, 'tiktok', 'profile', answers, request, reply);
      if (fault.handled) return reply;
      return reply.send(
        ok({
          creator_avatar_url: '',
          creator_username: tiktokUsernameOf(accountKey),
          creator_nickname: accountLabel(accountKey),
          ...creatorSettings(accountKey, state.tiktokUnaudited),
        }),
      );
    });

    app.post<PlatformCall>('/v2/post/publish/video/init/', async (request, reply) => {
      const accountKey = account(request, reply);
      if (!accountKey) return reply;
      const fault = faultFor(state, 'tiktok', 'init', answers, request, reply);
      if (fault.handled) return reply;
      // "Direct Post" → video/init: each user access_token is limited to 6 requests per minute.
      if (!state.caps.tiktokInit(tokenOf(request)!)) {
        return send(
          reply,
          tiktokError(429, 'rate_limit_exceeded', 'API rate limit was exceeded, please try again later.', { 'retry-after': '60' }),
        );
      }
      const body = await readJson(request);
      const source = body.source_info ?? {};
      const size = Number(source.video_size);
      const chunkSize = Number(source.chunk_size);
      const totalChunks = Number(source.total_chunk_count);
      if (source.source !== 'FILE_UPLOAD')
        return send(reply, tiktokError(400, 'invalid_params', 'The sandbox takes source FILE_UPLOAD only.'));
      if (!body.post_info?.privacy_level) return send(reply, tiktokError(400, 'invalid_params', 'post_info.privacy_level is required.'));
      // "Direct Post" → video/init error codes: privacy_level_option_mismatch (400) when the level is
      // not one creator_info offers; spam_risk_too_many_posts (403) past the creator's daily post cap.
      if (!creatorSettings(accountKey, state.tiktokUnaudited).privacy_level_options.includes(body.post_info.privacy_level)) {
        return send(
          reply,
          tiktokError(400, 'privacy_level_option_mismatch', 'privacy_level is not one of the privacy_level_options of creator_info.'),
        );
      }
      const chunkRuleBroken =
        !(size > 0) ||
        !(chunkSize > 0) ||
        chunkSize > 64 * MB ||
        (size < 5 * MB ? chunkSize !== size : chunkSize < 5 * MB) ||
        totalChunks !== Math.max(1, Math.floor(size / chunkSize)) ||
        totalChunks > 1000;
      if (chunkRuleBroken) {
        return send(reply, tiktokError(400, 'invalid_params', 'video_size, chunk_size and total_chunk_count break the chunk rules.'));
      }
      if (!state.caps.tiktokPost(accountKey)) {
        return send(
          reply,
          tiktokError(403, 'spam_risk_too_many_posts', 'The daily post cap from the API is reached for the current user.'),
        );
      }
      const publish: Publish = {
        ...state.newSink(size),
        id: `v_pub_file~v2-1.${ids.digits(19)}`,
        account: accountKey,
        caption: String(body.post_info.title ?? ''),
        postInfo: body.post_info,
        chunkSize,
        totalChunks,
        uploadToken: ids.opaque(),
        statusChecksSinceUpload: 0,
      };
      publishes.set(publish.id, publish);
      state.saveSessions();
      if (fault.fault) return dropConnection(request, reply);
      const uploadUrl = `${originOf(request)}${mount}/open-upload.tiktokapis.com/video/?upload_id=${encodeURIComponent(publish.id)}&upload_token=${publish.uploadToken}`;
      return reply.send(ok({ publish_id: publish.id, upload_url: uploadUrl }));
    });

    app.post<PlatformCall>('/v2/post/publish/status/fetch/', async (request, reply) => {
      const accountKey = account(request, reply);
      if (!accountKey) return reply;
      const fault = faultFor(state, 'tiktok', 'status', answers, request, reply);
      if (fault.handled) return reply;
      const body = await readJson(request);
      const publish = publishes.get(String(body.publish_id ?? ''));
      if (!publish || publish.account !== accountKey)
        return send(reply, tiktokError(400, 'invalid_publish_id', 'The publish_id does not exist.'));
      let data: Record<string, unknown>;
      if (!publish.video) {
        data = { status: 'PROCESSING_UPLOAD', uploaded_bytes: publish.received };
      } else if (publish.statusChecksSinceUpload++ === 0) {
        data = { status: 'PROCESSING_DOWNLOAD', uploaded_bytes: publish.received };
      } else {
        data = {
          status: 'PUBLISH_COMPLETE',
          uploaded_bytes: publish.received,
          publicaly_available_post_id: ['POST_ID'],
        };
      }
      if (fault.fault) return dropConnection(request, reply);
      // TikTok sends post ids as bare 64-bit integers, which JSON.parse rounds; so does the sandbox.
      const text = JSON.stringify(ok(data)).replace('"POST_ID"', publish.video?.id ?? '');
      return reply.type('application/json; charset=utf-8').send(text);
    });

    app.post<PlatformCall>('/v2/video/query/', async (request, reply) => {
      const accountKey = account(request, reply);
      if (!accountKey) return reply;
      const fault = faultFor(state, 'tiktok', 'stats', answers, request, reply);
      if (fault.handled) return reply;
      const body = await readJson(request);
      const wanted: string[] = (body.filters?.video_ids ?? []).map(String);
      // TikTok, "Query Videos" (developers.tiktok.com/doc/tiktok-api-v1-video-query, kept by v2):
      // "Number of video ids should not be larger than 20 at a time."
      if (wanted.length > maxVideoIdsPerQuery) {
        return send(reply, tiktokError(400, 'invalid_params', `video_ids takes at most ${maxVideoIdsPerQuery} ids.`));
      }
      const videos = wanted.map((id) => state.findVideo('tiktok', id)).filter((video) => video?.account === accountKey);
      return reply.send(ok({ videos: videos.map((video) => videoFields(video!, fieldsOf(request))), cursor: 0, has_more: false }));
    });

    app.post<PlatformCall>('/v2/video/list/', async (request, reply) => {
      const accountKey = account(request, reply);
      if (!accountKey) return reply;
      const fault = faultFor(state, 'tiktok', 'list', answers, request, reply);
      if (fault.handled) return reply;
      const body = await readJson(request);
      const count = Math.min(20, Number(body.max_count ?? 20));
      const cursor = Number(body.cursor ?? 0);
      const videos = state.videosOf('tiktok', accountKey).reverse();
      const page = videos.slice(cursor, cursor + count);
      return reply.send(
        ok({
          videos: page.map((video) => videoFields(video, fieldsOf(request))),
          cursor: cursor + page.length,
          has_more: cursor + count < videos.length,
        }),
      );
    });
  };

  const upload = async (app: FastifyInstance) => {
    app.put<PlatformCall>('/video/', async (request, reply) => {
      const query = request.query;
      const publish = publishes.get(query.upload_id ?? '');
      if (!publish || publish.uploadToken !== query.upload_token) {
        // Read the chunk first: answering mid-body would reach the client as a reset, not as this answer.
        await readBody(request);
        return send(reply, tiktokError(404, 'invalid_upload_url', 'The upload URL is invalid or expired.'));
      }
      const fault = faultFor(state, 'tiktok', 'upload', answers, request, reply);
      if (fault.handled) return reply;
      const match = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(String(request.headers['content-range'] ?? ''));
      const index = Math.floor(publish.received / publish.chunkSize);
      const expectedLength = index === publish.totalChunks - 1 ? publish.expected - publish.received : publish.chunkSize;
      if (
        !match ||
        Number(match[1]) !== publish.received ||
        Number(match[3]) !== publish.expected ||
        Number(match[2]) - Number(match[1]) + 1 !== expectedLength
      ) {
        reply.header('connection', 'close');
        return send(
          reply,
          tiktokError(
            416,
            'invalid_content_range',
            `Expected bytes ${publish.received}-${publish.received + expectedLength - 1}/${publish.expected}.`,
          ),
        );
      }
      const dropAfter = fault.fault?.kind === 'drop-connection' ? (fault.fault.afterBytes ?? Math.floor(expectedLength / 2)) : undefined;
      const start = publish.received;
      const outcome = await receiveBytes(state, request, publish, dropAfter);
      if (outcome === 'too-long') return send(reply, tiktokError(400, 'invalid_content_range', 'More bytes than video_size.'));
      if (outcome === 'dropped' || publish.received - start < expectedLength) {
        // A chunk counts whole or not at all, so the next attempt resends it from its start.
        state.truncate(publish, start);
        state.saveSessions();
        return dropConnection(request, reply);
      }
      if (publish.received === publish.expected) {
        const id = ids.digits(19);
        publish.video = {
          platform: 'tiktok',
          id,
          account: publish.account,
          title: publish.caption,
          description: publish.caption,
          tags: [],
          bytes: publish.received,
          sha256: state.digest(publish),
          createdAt: state.now(),
          url: `https://www.tiktok.com/@${tiktokUsernameOf(publish.account)}/video/${id}`,
          options: { post_info: publish.postInfo },
        };
        state.addVideo(publish.video);
      }
      if (fault.fault) return dropConnection(request, reply);
      return reply.status(publish.received === publish.expected ? 201 : 206).send();
    });
  };

  return { api, upload };
}
