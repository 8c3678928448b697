import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { t } from '../../messages';
import {
  accountLabel,
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
} from '../common';
import { ids, stableId, type SandboxState, type SandboxVideo, type UploadSink } from '../state';

/** Google's error envelope: `{ error: { code, message, errors: [{ domain, reason, message }] } }`. */
function googleError(code: number, reason: string, message: string, domain = 'global', headers?: Record<string, string>): PlatformFailure {
  return { status: code, headers, body: { error: { code, message, errors: [{ message, domain, reason }] } } };
}

const answers: FaultAnswers = {
  'status-429': (fault) =>
    googleError(429, 'rateLimitExceeded', 'Too many requests.', 'usageLimits', {
      'retry-after': String(fault.retryAfterSeconds ?? 1),
    }),
  'status-500': () => googleError(500, 'backendError', 'Backend Error'),
  quota: () => googleError(403, 'quotaExceeded', 'The request cannot be completed because you have exceeded your quota.', 'youtube.quota'),
  unauthorized: () => invalidCredentials(),
};

function invalidCredentials() {
  return googleError(401, 'authError', 'Request had invalid authentication credentials.');
}

const channelIdOf = (account: string) => `UC${stableId(account, 'youtube-channel', 22, 'base64url')}`;
const uploadsPlaylistOf = (account: string) => `UU${channelIdOf(account).slice(2)}`;

interface UploadSession extends UploadSink {
  meta: UploadMeta;
  done?: SandboxVideo;
}

interface UploadMeta {
  account: string;
  parts: string[];
  snippet: { title: string; description: string; tags: string[] };
  /** The resource's snippet and status as sent, for GET /sandbox/_posts. */
  received: Record<string, unknown>;
}

interface ReceivedResource {
  snippet?: { categoryId?: string };
  status?: { privacyStatus?: string; selfDeclaredMadeForKids?: boolean };
}

const quotaExceeded = () =>
  googleError(403, 'quotaExceeded', 'The request cannot be completed because you have exceeded your quota.', 'youtube.quota');

/** YouTube Data API, "Quota Calculator": what each method the connector calls costs, in units. */
const unitCost = { list: 1, update: 50, delete: 50 };
export const maxIdsPerList = 50;

/** The Google YouTube Data API v3 subset the connector uses, mounted at /sandbox/www.googleapis.com. */
export function youtubeSandbox(state: SandboxState, mount: string) {
  const sessions = state.sessions.youtube as Map<string, UploadSession>;
  return async (app: FastifyInstance) => {
    const account = (request: FastifyRequest<PlatformCall>, reply: FastifyReply) =>
      accountOrRefuse(state, 'youtube', request, reply, { invalid: invalidCredentials });
    /** The account once the call's units are charged to its daily quota, or null once quotaExceeded is sent. */
    const charged = (request: FastifyRequest<PlatformCall>, reply: FastifyReply, cost: number) => {
      const accountKey = account(request, reply);
      if (!accountKey) return null;
      if (state.caps.youtubeUnits(accountKey, cost)) return accountKey;
      send(reply, quotaExceeded());
      return null;
    };

    // The videos resource (developers.google.com/youtube/v3/docs/videos) answers what the upload set:
    // snippet.categoryId, status.privacyStatus, status.selfDeclaredMadeForKids as the channel
    // declared it and status.madeForKids, YouTube's own flag (taken here from the declaration).
    const videoResource = (video: SandboxVideo, parts: string[]) => {
      const received = (video.options ?? {}) as ReceivedResource;
      const resource: Record<string, unknown> = { kind: 'youtube#video', id: video.id };
      if (parts.includes('snippet')) {
        resource.snippet = {
          publishedAt: new Date(video.createdAt).toISOString(),
          channelId: channelIdOf(video.account),
          title: video.title,
          description: video.description,
          tags: video.tags,
          categoryId: received.snippet?.categoryId ?? '22',
        };
      }
      if (parts.includes('status')) {
        const declared = received.status?.selfDeclaredMadeForKids;
        resource.status = {
          uploadStatus: 'processed',
          privacyStatus: received.status?.privacyStatus ?? 'public',
          madeForKids: declared ?? false,
          ...(declared === undefined ? {} : { selfDeclaredMadeForKids: declared }),
        };
      }
      if (parts.includes('statistics')) {
        const stats = state.statsOf(video);
        resource.statistics = {
          viewCount: String(stats.views),
          likeCount: String(stats.likes),
          favoriteCount: '0',
          commentCount: String(stats.comments),
        };
      }
      return resource;
    };

    const finish = (meta: UploadMeta, bytes: number, sha256: string): SandboxVideo => {
      const id = ids.youtubeVideo();
      const video: SandboxVideo = {
        platform: 'youtube',
        id,
        account: meta.account,
        title: meta.snippet.title,
        description: meta.snippet.description,
        tags: meta.snippet.tags,
        bytes,
        sha256,
        createdAt: state.now(),
        url: `https://www.youtube.com/shorts/${id}`,
        options: meta.received,
      };
      state.addVideo(video);
      return video;
    };

    const parseMeta = (body: Record<string, any>, accountKey: string, parts: string[]): UploadMeta | PlatformFailure => {
      const title = body.snippet?.title;
      if (typeof title !== 'string' || title.trim() === '' || title.length > 100 || /[<>]/.test(title)) {
        return googleError(400, 'invalidTitle', 'The request metadata specifies an invalid or empty video title.', 'youtube.video');
      }
      return {
        account: accountKey,
        parts,
        snippet: {
          title,
          description: String(body.snippet?.description ?? ''),
          tags: Array.isArray(body.snippet?.tags) ? body.snippet.tags.map(String) : [],
        },
        received: { snippet: body.snippet, status: body.status ?? {} },
      };
    };

    const partsOf = (request: FastifyRequest<PlatformCall>) =>
      String(request.query.part ?? 'snippet')
        .split(',')
        .map((part) => part.trim());

    app.post<PlatformCall>('/upload/youtube/v3/videos', async (request, reply) => {
      const query = request.query;
      const accountKey = account(request, reply);
      if (!accountKey) return reply;
      // videos.insert draws on its own bucket of calls a day, not on the units (see caps.ts).
      if (!state.caps.youtubeUpload(accountKey)) return send(reply, quotaExceeded());
      const fault = faultFor(state, 'youtube', 'init', answers, request, reply);
      if (fault.handled) return reply;

      if (query.uploadType === 'resumable') {
        const size = Number(request.headers['x-upload-content-length']);
        if (!Number.isInteger(size) || size <= 0) {
          return send(reply, googleError(400, 'badContent', 'X-Upload-Content-Length is required for resumable uploads.'));
        }
        const meta = parseMeta(await readJson(request), accountKey, partsOf(request));
        if ('status' in meta) return send(reply, meta);
        const uploadId = ids.opaque();
        sessions.set(uploadId, { ...state.newSink(size), meta });
        state.saveSessions();
        if (fault.fault) return dropConnection(request, reply);
        const location = `${originOf(request)}${mount}/www.googleapis.com/upload/youtube/v3/videos?uploadType=resumable&upload_id=${uploadId}`;
        return reply.status(200).header('location', location).header('x-guploader-uploadid', uploadId).send();
      }

      if (query.uploadType === 'multipart') {
        const boundary = /boundary="?([^";]+)"?/i.exec(request.headers['content-type'] ?? '')?.[1];
        if (!boundary) return send(reply, googleError(400, 'badContent', 'Multipart uploads need a multipart/related body.'));
        const parts = splitMultipart(await readBody(request), boundary);
        if (parts.length !== 2) return send(reply, googleError(400, 'badContent', 'A multipart upload has metadata and media.'));
        const meta = parseMeta(JSON.parse(parts[0].body.toString('utf8')), accountKey, partsOf(request));
        if ('status' in meta) return send(reply, meta);
        const media = /base64/i.test(parts[1].headers['content-transfer-encoding'] ?? '')
          ? Buffer.from(parts[1].body.toString('ascii'), 'base64')
          : parts[1].body;
        const video = finish(meta, media.length, crypto.createHash('sha256').update(media).digest('hex'));
        if (fault.fault) return dropConnection(request, reply);
        return reply.send(videoResource(video, meta.parts));
      }

      return send(reply, googleError(400, 'invalidParameter', `Unsupported uploadType: ${query.uploadType ?? '(none)'}`));
    });

    app.put<PlatformCall>('/upload/youtube/v3/videos', async (request, reply) => {
      const query = request.query;
      const session = sessions.get(query.upload_id ?? '');
      if (!session) return send(reply, googleError(404, 'notFound', 'The upload session was not found or has expired.'));
      const meta = session.meta;
      const range = String(request.headers['content-range'] ?? '');
      const isQuery = /^bytes \*\/\d+$/.test(range);
      const fault = faultFor(state, 'youtube', isQuery ? 'status' : 'upload', answers, request, reply);
      if (fault.handled) return reply;

      const incomplete = () => {
        reply.status(308);
        if (session.received > 0) reply.header('range', `bytes=0-${session.received - 1}`);
        return reply.send();
      };
      if (session.done) return reply.status(200).send(videoResource(session.done, meta.parts));
      if (isQuery) return incomplete();

      const match = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(range);
      const start = match ? Number(match[1]) : 0;
      const total = match ? Number(match[3]) : session.expected;
      if (total !== session.expected || start !== session.received) {
        return send(
          reply,
          googleError(400, 'badContent', `Content-Range ${range} does not continue at byte ${session.received} of ${session.expected}.`),
        );
      }
      const dropAfter =
        fault.fault?.kind === 'drop-connection'
          ? (fault.fault.afterBytes ?? Math.floor((session.expected - session.received) / 2))
          : undefined;
      const outcome = await receiveBytes(state, request, session, dropAfter);
      if (outcome === 'too-long') {
        reply.header('connection', 'close');
        return send(reply, googleError(400, 'badContent', 'More bytes than X-Upload-Content-Length announced.'));
      }
      if (outcome === 'dropped') return dropConnection(request, reply);
      if (session.received < session.expected) return incomplete();
      session.done = finish(meta, session.received, state.digest(session));
      state.saveSessions();
      if (fault.fault) return dropConnection(request, reply);
      return reply.status(200).send(videoResource(session.done, meta.parts));
    });

    app.get<PlatformCall>('/youtube/v3/videos', async (request, reply) => {
      const accountKey = charged(request, reply, unitCost.list);
      if (!accountKey) return reply;
      const parts = partsOf(request);
      const step = parts.includes('statistics') ? 'stats' : 'list';
      const fault = faultFor(state, 'youtube', step, answers, request, reply);
      if (fault.handled) return reply;
      const wanted = String(request.query.id ?? '').split(',');
      // videos.list (developers.google.com/youtube/v3/docs/videos/list): `id` is a comma-separated
      // list, one call costs 1 unit whatever its length, and a page holds at most 50 items; the
      // sandbox refuses a longer list, so a client that sends more than 50 is caught in tests.
      if (wanted.length > maxIdsPerList) {
        return send(reply, googleError(400, 'badRequest', `The request specifies more than ${maxIdsPerList} video ids.`));
      }
      const items = wanted
        .map((id) => state.findVideo('youtube', id))
        .filter((video) => video !== undefined)
        .map((video) => videoResource(video, parts));
      return reply.send({
        kind: 'youtube#videoListResponse',
        items,
        pageInfo: { totalResults: items.length, resultsPerPage: items.length },
      });
    });

    // videos.update of the snippet, as an edit of a published set sends it.
    app.put<PlatformCall>('/youtube/v3/videos', async (request, reply) => {
      const accountKey = charged(request, reply, unitCost.update);
      if (!accountKey) return reply;
      const fault = faultFor(state, 'youtube', 'edit', answers, request, reply);
      if (fault.handled) return reply;
      const body = await readJson(request);
      const video = state.videos.find((entry) => entry.platform === 'youtube' && entry.id === body.id);
      if (!video || video.account !== accountKey) {
        return send(reply, googleError(404, 'videoNotFound', 'The video that you are trying to update cannot be found.', 'youtube.video'));
      }
      const snippet = body.snippet ?? {};
      if (typeof snippet.title !== 'string' || snippet.title === '' || !snippet.categoryId) {
        return send(
          reply,
          googleError(
            400,
            'invalidVideoMetadata',
            'The request metadata is invalid: snippet.title and snippet.categoryId are required.',
            'youtube.video',
          ),
        );
      }
      state.updateVideo(video, {
        title: snippet.title,
        description: typeof snippet.description === 'string' ? snippet.description : '',
        tags: Array.isArray(snippet.tags) ? snippet.tags.map(String) : [],
      });
      return reply.send(videoResource(video, ['snippet']));
    });

    // videos.delete (developers.google.com/youtube/v3/docs/videos/delete): 204 No Content, 404
    // videoNotFound; another channel's video is refused 403 forbidden. Faults as for an edit.
    app.delete<PlatformCall>('/youtube/v3/videos', async (request, reply) => {
      const accountKey = charged(request, reply, unitCost.delete);
      if (!accountKey) return reply;
      const fault = faultFor(state, 'youtube', 'edit', answers, request, reply);
      if (fault.handled) return reply;
      const id = request.query.id ?? '';
      const video = state.videos.find((entry) => entry.platform === 'youtube' && entry.id === id);
      if (!video)
        return send(reply, googleError(404, 'videoNotFound', 'The video that you are trying to delete cannot be found.', 'youtube.video'));
      if (video.account !== accountKey) {
        return send(reply, googleError(403, 'forbidden', 'The video that you are trying to delete cannot be deleted.', 'youtube.video'));
      }
      state.removeVideo(video);
      return reply.status(204).send();
    });

    const channelResource = (accountKey: string, parts: string[]) => {
      const id = channelIdOf(accountKey);
      const description = state.channelDescriptions.get(accountKey) ?? '';
      const title = t.connections.sandboxAccount(accountLabel(accountKey));
      const resource: Record<string, unknown> = { kind: 'youtube#channel', id };
      if (parts.includes('snippet')) resource.snippet = { title, description, customUrl: `@${id.toLowerCase()}` };
      if (parts.includes('contentDetails'))
        resource.contentDetails = { relatedPlaylists: { likes: '', uploads: uploadsPlaylistOf(accountKey) } };
      if (parts.includes('brandingSettings')) resource.brandingSettings = { channel: { title, description } };
      return resource;
    };

    app.get<PlatformCall>('/youtube/v3/channels', async (request, reply) => {
      const accountKey = charged(request, reply, unitCost.list);
      if (!accountKey) return reply;
      const parts = partsOf(request);
      const fault = faultFor(state, 'youtube', parts.includes('contentDetails') ? 'list' : 'profile', answers, request, reply);
      if (fault.handled) return reply;
      if (request.query.mine !== 'true') {
        return send(reply, googleError(400, 'missingRequiredParameter', 'The sandbox answers channels.list with mine=true only.'));
      }
      return reply.send({ kind: 'youtube#channelListResponse', items: [channelResource(accountKey, parts)] });
    });

    app.put<PlatformCall>('/youtube/v3/channels', async (request, reply) => {
      const accountKey = charged(request, reply, unitCost.update);
      if (!accountKey) return reply;
      const fault = faultFor(state, 'youtube', 'profile', answers, request, reply);
      if (fault.handled) return reply;
      const body = await readJson(request);
      if (body.id !== channelIdOf(accountKey)) {
        return send(
          reply,
          googleError(403, 'channelForbidden', 'The channel in the request is not the authorized user’s channel.', 'youtube.channel'),
        );
      }
      const description = body.brandingSettings?.channel?.description;
      if (typeof description !== 'string') {
        return send(
          reply,
          googleError(400, 'invalidBrandingOption', 'brandingSettings.channel.description is missing.', 'youtube.channel'),
        );
      }
      state.setChannelDescription(accountKey, description);
      return reply.send(channelResource(accountKey, ['brandingSettings']));
    });

    app.get<PlatformCall>('/youtube/v3/playlistItems', async (request, reply) => {
      const accountKey = charged(request, reply, unitCost.list);
      if (!accountKey) return reply;
      const fault = faultFor(state, 'youtube', 'list', answers, request, reply);
      if (fault.handled) return reply;
      const query = request.query;
      if (query.playlistId !== uploadsPlaylistOf(accountKey)) {
        return send(
          reply,
          googleError(
            404,
            'playlistNotFound',
            'The playlist identified with the request’s playlistId parameter cannot be found.',
            'youtube.playlistItem',
          ),
        );
      }
      const pageSize = Math.min(50, Number(query.maxResults ?? 5));
      const offset = Number(query.pageToken ?? 0);
      const uploads = state.videosOf('youtube', accountKey).reverse();
      const page = uploads.slice(offset, offset + pageSize);
      return reply.send({
        kind: 'youtube#playlistItemListResponse',
        items: page.map((video) => ({
          kind: 'youtube#playlistItem',
          id: `${uploadsPlaylistOf(accountKey)}.${video.id}`,
          snippet: {
            title: video.title,
            publishedAt: new Date(video.createdAt).toISOString(),
            resourceId: { kind: 'youtube#video', videoId: video.id },
          },
          contentDetails: { videoId: video.id, videoPublishedAt: new Date(video.createdAt).toISOString() },
        })),
        nextPageToken: offset + pageSize < uploads.length ? String(offset + pageSize) : undefined,
        pageInfo: { totalResults: uploads.length, resultsPerPage: pageSize },
      });
    });
  };
}

/** multipart/related as Google's client libraries send it: metadata part, then media part. */
function splitMultipart(body: Buffer, boundary: string) {
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: { headers: Record<string, string>; body: Buffer }[] = [];
  let position = body.indexOf(delimiter);
  while (position >= 0) {
    const start = position + delimiter.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const next = body.indexOf(delimiter, start);
    if (next < 0) break;
    const part = body.subarray(start, next);
    const headerEnd = part.indexOf('\r\n\r\n');
    const headers: Record<string, string> = {};
    for (const line of part.subarray(0, headerEnd).toString('utf8').split('\r\n')) {
      const colon = line.indexOf(':');
      if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    let content = part.subarray(headerEnd + 4);
    if (content.subarray(-2).toString() === '\r\n') content = content.subarray(0, -2);
    parts.push({ headers, body: content });
    position = next;
  }
  return parts;
}
