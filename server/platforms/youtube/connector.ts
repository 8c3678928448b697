import { youtubeChoiceRefusal, youtubeDefaults, youtubeLimits, youtubeTextRefusal } from '../../../src/lib/posting-rules/youtube';
import { checkFile, fileRange, PlatformClient, readWhenStill, stoppable } from '../client';
import {
  errorForStatus,
  retryAfterOf,
  PermanentPlatformError,
  ProfileAuthError,
  PublishStopped,
  PostingCapError,
  TransientPlatformError,
  type PlatformError,
} from '../errors';
import type { ConnectorContext, Published, VideoStats, VideoTexts, VideoUpload, YouTubeConnector } from '../types';

/**
 * YouTube Data API v3: videos.insert through the resumable upload protocol, videos.list for
 * statistics, channels.update for the channel description. The publish key travels as a video
 * tag, which viewers do not see and videos.list returns, so an upload can be recognised later.
 */

type Progress = { uploadUrl: string } | { done: Published };

const quotaReasons = ['quotaExceeded', 'dailyLimitExceeded', 'uploadLimitExceeded'];
const rateReasons = ['rateLimitExceeded', 'userRateLimitExceeded'];

function readGoogleError(status: number, body: any, headers: Headers): PlatformError {
  const reason: string | undefined = body?.error?.errors?.[0]?.reason;
  const detail: string = body?.error?.message ?? (typeof body === 'string' && body ? body.slice(0, 300) : `HTTP ${status}`);
  if (status === 401) return new ProfileAuthError('youtube', detail, status);
  if (status === 403 && reason && quotaReasons.includes(reason)) {
    return new PostingCapError('youtube', detail, status);
  }
  if (status === 403 && reason && rateReasons.includes(reason)) {
    return new TransientPlatformError('youtube', 'rate_limited', detail, status, retryAfterOf(headers));
  }
  return errorForStatus('youtube', status, detail, headers);
}

const apiBase = (ctx: ConnectorContext) => `${ctx.endpoints['www.googleapis.com']}/youtube/v3`;
const client = (ctx: ConnectorContext) => new PlatformClient(ctx, 'youtube', readGoogleError);
const shortsUrl = (id: string) => `https://www.youtube.com/shorts/${id}`;

/**
 * Units of the project's 10,000 a day each call spends ("Quota Calculator",
 * developers.google.com/youtube/v3/determine_quota_cost): list calls 1, updates and deletes 50.
 * videos.insert draws on its own bucket of 100 calls a day instead, which posting-caps.ts counts,
 * and the resumable upload's byte requests belong to that insert.
 */
const units = { list: 1, update: 50, delete: 50 };

/**
 * The snippet, its title and description refused where YouTube would refuse them
 * (src/lib/posting-rules/youtube.ts: the route checked the same before the post was queued, but a
 * post queued earlier, or an edit, may still carry them). The tags are what the publish key leaves
 * of tags' 500 characters, without angle brackets.
 */
function videoResource(video: VideoTexts) {
  const refusal = youtubeTextRefusal(video);
  if (refusal) throw new PermanentPlatformError('youtube', { kind: 'rule_refused', refusal, subject: '' }, '');
  const tags = [video.publishKey];
  let length = video.publishKey.length;
  for (const tag of video.tags.map((text) => text.replace(/[<>]/g, ''))) {
    const cost = tag.length + (tag.includes(' ') ? 2 : 0) + 1;
    if (length + cost > youtubeLimits.tagsCharacters) break;
    tags.push(tag);
    length += cost;
  }
  return {
    title: video.title,
    description: video.description,
    tags,
    categoryId: video.categoryId ?? youtubeDefaults.categoryId,
  };
}

/**
 * videos.insert's resource from the post's own choices (developers.google.com/youtube/v3/docs/videos:
 * status.privacyStatus "public" | "unlisted" | "private"; status.selfDeclaredMadeForKids, the
 * channel's own COPPA declaration, which the operator makes, never the product).
 */
function uploadResource(video: VideoUpload) {
  const options = video.options.youtube ?? {};
  const refusal = youtubeChoiceRefusal(options);
  if (refusal) throw new PermanentPlatformError('youtube', { kind: 'rule_refused', refusal, subject: video.title }, '');
  if (!options.privacyStatus)
    throw new PermanentPlatformError(
      'youtube',
      { kind: 'rule_refused', refusal: { code: 'youtubeKidsRequired' }, subject: video.title },
      '',
    );
  return {
    snippet: videoResource({ ...video, categoryId: options.categoryId }),
    status: { privacyStatus: options.privacyStatus, selfDeclaredMadeForKids: options.selfDeclaredMadeForKids },
  };
}

async function findWith(api: PlatformClient, ctx: ConnectorContext, publishKey: string): Promise<Published | null> {
  const channels = await api.call(`${apiBase(ctx)}/channels?part=contentDetails&mine=true`, { units: units.list });
  const uploads: string | undefined = channels.body?.items?.[0]?.contentDetails?.relatedPlaylists?.uploads;
  if (!uploads) return null;
  // An ambiguous failure is recent, so the newest 50 uploads are where it would be.
  const items = await api.call(
    `${apiBase(ctx)}/playlistItems?part=contentDetails&maxResults=50&playlistId=${encodeURIComponent(uploads)}`,
    {
      units: units.list,
    },
  );
  const ids: string[] = (items.body?.items ?? []).map((item: any) => item.contentDetails?.videoId).filter(Boolean);
  if (ids.length === 0) return null;
  const videos = await api.call(`${apiBase(ctx)}/videos?part=snippet&id=${ids.join(',')}`, { units: units.list });
  const match = (videos.body?.items ?? []).find((item: any) => item.snippet?.tags?.includes(publishKey));
  return match ? { remoteId: match.id, url: shortsUrl(match.id) } : null;
}

/** Asks a resumable session how far it got: the finished video, the next byte, or null when it is gone. */
type UploadStatus = { video: { id: string } } | { offset: number } | null;

async function queryUpload(api: PlatformClient, uploadUrl: string, size: number): Promise<UploadStatus> {
  const answer = await api.call(uploadUrl, {
    method: 'PUT',
    headers: { 'content-range': `bytes */${size}`, 'content-length': '0' },
    accept: [308, 404, 410],
  });
  if (answer.status === 404 || answer.status === 410) return null;
  if (answer.status !== 308) return { video: answer.body as { id: string } };
  const range = /bytes=0-(\d+)/.exec(answer.headers.get('range') ?? '');
  return { offset: range ? Number(range[1]) + 1 : 0 };
}

async function sendBytes(
  api: PlatformClient,
  ctx: ConnectorContext,
  uploadUrl: string,
  video: VideoUpload,
  from: number,
): Promise<{ id: string }> {
  let offset = from;
  for (;;) {
    const answer = await api.call(uploadUrl, {
      method: 'PUT',
      headers: {
        'content-type': video.contentType,
        'content-length': String(video.size - offset),
        'content-range': `bytes ${offset}-${video.size - 1}/${video.size}`,
      },
      body: fileRange(video, offset),
      accept: [308, 404, 410],
    });
    if (answer.status === 404 || answer.status === 410) {
      await ctx.progress.save(video.publishKey, {});
      throw new TransientPlatformError('youtube', 'unavailable', 'upload session expired');
    }
    if (answer.status !== 308) return answer.body as { id: string };
    // 308 after a full body means the server kept only part of it: continue from what it has.
    const status = await queryUpload(api, uploadUrl, video.size);
    if (status === null) continue;
    if ('video' in status) return status.video;
    if (status.offset <= offset) throw new TransientPlatformError('youtube', 'unavailable', 'upload made no progress');
    offset = status.offset;
  }
}

async function publishVideo(ctx: ConnectorContext, video: VideoUpload): Promise<Published> {
  await checkFile(video);
  const api = client(ctx);
  const saved = (await ctx.progress.load(video.publishKey)) as Progress | undefined;
  if (saved && 'done' in saved) return saved.done;
  const finish = async (id: string) => {
    const done = { remoteId: id, url: shortsUrl(id) };
    await ctx.progress.save(video.publishKey, { done });
    return done;
  };

  let uploadUrl = saved && 'uploadUrl' in saved ? saved.uploadUrl : undefined;
  let offset = 0;
  if (uploadUrl) {
    const status = await queryUpload(api, uploadUrl, video.size);
    if (status === null) uploadUrl = undefined;
    else if ('video' in status) return finish(status.video.id);
    else offset = status.offset;
  }
  if (!uploadUrl) {
    const existing = await findWith(api, ctx, video.publishKey);
    if (existing) return finish(existing.remoteId);
    const resource = JSON.stringify(uploadResource(video));
    const started = await api.call(
      `${ctx.endpoints['www.googleapis.com']}/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status`,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json; charset=UTF-8',
          'x-upload-content-length': String(video.size),
          'x-upload-content-type': video.contentType,
        },
        body: () => resource,
      },
    );
    uploadUrl = started.headers.get('location') ?? undefined;
    if (!uploadUrl) throw new TransientPlatformError('youtube', 'unavailable', 'no upload session URL in the answer');
    await ctx.progress.save(video.publishKey, { uploadUrl });
  }
  const uploaded = await sendBytes(api, ctx, uploadUrl, video, offset);
  return finish(uploaded.id);
}

/**
 * videos.delete (developers.google.com/youtube/v3/docs/videos/delete: DELETE
 * https://www.googleapis.com/youtube/v3/videos?id=…, answered 204 No Content; 404 videoNotFound
 * for a video that is not there, which is as good; 50 units).
 */
async function deleteVideo(api: PlatformClient, ctx: ConnectorContext, id: string): Promise<void> {
  await api.call(`${apiBase(ctx)}/videos?id=${encodeURIComponent(id)}`, { method: 'DELETE', accept: [404], units: units.delete });
}

/**
 * After a stop: the final byte of a resumable upload is what creates the video ("Resumable
 * uploads", developers.google.com/youtube/v3/guides/using_resumable_upload_protocol: the answer to
 * the request that completes the upload is the new video resource). A session still short of its
 * last byte never becomes a video and expires on its own; YouTube documents no call that cancels
 * one, so it is left, and kept in the progress should the delete be refused and the upload resume.
 * A session that did complete is removed with videos.delete.
 */
async function settleStopped(ctx: ConnectorContext, video: VideoUpload): Promise<PublishStopped> {
  const saved = (await ctx.progress.load(video.publishKey)) as Progress | undefined;
  if (!saved || !('uploadUrl' in saved)) return new PublishStopped('youtube', false, 'no upload session was saved');
  const api = client(ctx);
  // An upload that completes from the proxy's buffers after the abort becomes a video: wait and see.
  const status = await readWhenStill(
    ctx,
    () => queryUpload(api, saved.uploadUrl, video.size),
    (state) => (state !== null && 'offset' in state ? state.offset : null),
  );
  if (status === null || !('video' in status)) return new PublishStopped('youtube', false, 'the upload session is incomplete');
  await deleteVideo(api, ctx, status.video.id);
  await ctx.progress.save(video.publishKey, {});
  return new PublishStopped('youtube', false, `the finished video ${status.video.id} was deleted`);
}

export const youtube: YouTubeConnector = {
  platform: 'youtube',

  async publish(ctx, video) {
    return stoppable(
      ctx,
      'youtube',
      () => publishVideo(ctx, video),
      (cleanup) => settleStopped(cleanup, video),
    );
  },

  async deleteVideo(ctx, remoteId) {
    await deleteVideo(client(ctx), ctx, remoteId);
  },

  async updateVideo(ctx, remoteId, texts) {
    // videos.update replaces the whole snippet, and YouTube requires its title and category.
    const snippet = videoResource(texts);
    await client(ctx).call(`${apiBase(ctx)}/videos?part=snippet`, {
      method: 'PUT',
      units: units.update,
      headers: { 'content-type': 'application/json; charset=UTF-8' },
      body: () => JSON.stringify({ id: remoteId, snippet }),
    });
  },

  async fetchStats(ctx, remoteId) {
    const answer = await client(ctx).call(`${apiBase(ctx)}/videos?part=statistics&id=${encodeURIComponent(remoteId)}`, {
      units: units.list,
    });
    const statistics = answer.body?.items?.[0]?.statistics;
    if (!statistics) throw new PermanentPlatformError('youtube', 'video_not_found', remoteId);
    return {
      views: Number(statistics.viewCount ?? 0),
      likes: Number(statistics.likeCount ?? 0),
      comments: Number(statistics.commentCount ?? 0),
    };
  },

  // videos.list (developers.google.com/youtube/v3/docs/videos/list): `id` takes a comma-separated
  // list, up to 50 a page, for 1 quota unit a call whatever its length.
  statsBatchSize: 50,

  async fetchStatsOf(ctx, remoteIds) {
    const ids = remoteIds.map(encodeURIComponent).join(',');
    const answer = await client(ctx).call(`${apiBase(ctx)}/videos?part=statistics&id=${ids}&maxResults=${remoteIds.length}`, {
      units: units.list,
    });
    const found = new Map<string, VideoStats>();
    for (const item of answer.body?.items ?? []) {
      const statistics = item.statistics ?? {};
      found.set(String(item.id), {
        views: Number(statistics.viewCount ?? 0),
        likes: Number(statistics.likeCount ?? 0),
        comments: Number(statistics.commentCount ?? 0),
      });
    }
    return found;
  },

  async fetchChannel(ctx) {
    const answer = await client(ctx).call(`${apiBase(ctx)}/channels?part=snippet&mine=true`, { units: units.list });
    const channel = answer.body?.items?.[0];
    if (!channel) throw new PermanentPlatformError('youtube', 'rejected', 'the account has no YouTube channel');
    return {
      id: channel.id,
      name: channel.snippet?.title ?? '',
      description: channel.snippet?.description ?? '',
      url: `https://www.youtube.com/channel/${channel.id}`,
    };
  },

  async updateChannelDescription(ctx, description) {
    const api = client(ctx);
    const answer = await api.call(`${apiBase(ctx)}/channels?part=brandingSettings&mine=true`, { units: units.list });
    const channel = answer.body?.items?.[0];
    if (!channel) throw new PermanentPlatformError('youtube', 'rejected', 'the account has no YouTube channel');
    // channels.update replaces the whole brandingSettings part, so the other settings go back unchanged.
    const brandingSettings = {
      ...channel.brandingSettings,
      channel: { ...channel.brandingSettings?.channel, description },
    };
    await api.call(`${apiBase(ctx)}/channels?part=brandingSettings`, {
      method: 'PUT',
      units: units.update,
      headers: { 'content-type': 'application/json; charset=UTF-8' },
      body: () => JSON.stringify({ id: channel.id, brandingSettings }),
    });
  },
};
