import { t } from '../../messages';
import { captionWithMarker, hashtags } from '../../../src/lib/posting-rules/caption';
import { tiktokCaptionLimit, tiktokChoiceRefusal, tiktokCreatorRefusal, tiktokPostInfo } from '../../../src/lib/posting-rules/tiktok';
import { checkFile, fileRange, hasMarker, PlatformClient, readWhenStill, stoppable } from '../client';
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
import type { TikTokCreatorRules, TikTokPostOptions } from '../../../src/lib/contract';
import type { ConnectorContext, Published, TikTokConnector, VideoStats, VideoUpload } from '../types';

/**
 * TikTok Content Posting API, direct post with FILE_UPLOAD: creator_info/query, video/init,
 * chunked PUTs to the returned upload_url, status/fetch until PUBLISH_COMPLETE; the Display
 * API's video/query for statistics and video/list to find an upload again by the publish key,
 * kept as the caption's last line. The profile's access string is the bearer token.
 */

interface Started {
  publishId: string;
  uploadUrl: string;
  chunkSize: number;
}
type Progress = Started | { done: Published };

const MB = 1024 * 1024;
/** TikTok takes chunks of 5–64 MB, the last one up to 128 MB, and a file under 5 MB whole. */
const chunkBytes = 10 * MB;
const authCodes = ['access_token_invalid', 'scope_not_authorized', 'scope_permission_missed'];

function readTikTokError(status: number, body: any, headers: Headers): PlatformError {
  const code: string | undefined = body?.error?.code;
  const detail: string = [code, body?.error?.message].filter(Boolean).join(': ') || `HTTP ${status}`;
  if (status === 401 || (code && authCodes.includes(code))) return new ProfileAuthError('tiktok', detail, status);
  if (code === 'rate_limit_exceeded') {
    return new TransientPlatformError('tiktok', 'rate_limited', detail, status, retryAfterOf(headers));
  }
  if (code === 'spam_risk_too_many_posts' || code === 'spam_risk_too_many_pending_share' || code === 'reached_active_user_cap') {
    return new PostingCapError('tiktok', detail, status);
  }
  return errorForStatus('tiktok', status, detail, headers);
}

const apiBase = (ctx: ConnectorContext) => `${ctx.endpoints['open.tiktokapis.com']}/v2`;
const client = (ctx: ConnectorContext) => new PlatformClient(ctx, 'tiktok', readTikTokError);
const json = (value: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json; charset=UTF-8' },
  body: () => JSON.stringify(value),
});
const cleanUrl = (url: string) => url.split('?')[0];

function chunkSizeFor(size: number) {
  return size <= chunkBytes ? size : chunkBytes;
}

async function findWith(api: PlatformClient, ctx: ConnectorContext, publishKey: string): Promise<Published | null> {
  let cursor: number | undefined;
  // An ambiguous failure is recent: five pages of the newest posts are enough.
  for (let page = 0; page < 5; page++) {
    const answer = await api.call(
      `${apiBase(ctx)}/video/list/?fields=id,title,video_description,share_url`,
      json({ max_count: 20, ...(cursor ? { cursor } : {}) }),
    );
    const data = answer.body?.data ?? {};
    const match = (data.videos ?? []).find(
      (video: any) => hasMarker(video.video_description, publishKey) || hasMarker(video.title, publishKey),
    );
    if (match) return { remoteId: String(match.id), url: cleanUrl(match.share_url) };
    if (!data.has_more) return null;
    cursor = data.cursor;
  }
  return null;
}

async function uploadChunks(api: PlatformClient, started: Started, video: VideoUpload, from: number) {
  const count = Math.max(1, Math.floor(video.size / started.chunkSize));
  for (let index = Math.floor(from / started.chunkSize); index < count; index++) {
    const start = index * started.chunkSize;
    const end = index === count - 1 ? video.size : start + started.chunkSize;
    await api.call(started.uploadUrl, {
      method: 'PUT',
      auth: false,
      headers: {
        'content-type': video.contentType,
        'content-length': String(end - start),
        'content-range': `bytes ${start}-${end - 1}/${video.size}`,
      },
      body: fileRange(video, start, end),
    });
  }
}

type PostStatus = {
  status: string;
  fail_reason?: string;
  uploaded_bytes?: number;
  publicaly_available_post_id?: (string | number)[];
};

async function fetchStatus(api: PlatformClient, ctx: ConnectorContext, publishId: string): Promise<PostStatus> {
  const answer = await api.call(`${apiBase(ctx)}/post/publish/status/fetch/`, json({ publish_id: publishId }));
  const data: PostStatus = answer.body?.data ?? { status: 'PROCESSING_UPLOAD' };
  // Post ids are 64-bit integers in the JSON; read their digits from the text, not the rounded number.
  const exact = /"publicaly_available_post_id"\s*:\s*\[\s*"?(\d+)/.exec(answer.text);
  return exact ? { ...data, publicaly_available_post_id: [exact[1]] } : data;
}

/**
 * The post's own choices as video/init's post_info, re-checked against creator_info as it is now
 * (the creator may have changed their settings since the post was queued), by the same rules the
 * publish form and the route apply (src/lib/posting-rules/tiktok.ts).
 */
function postInfo(options: TikTokPostOptions, rules: TikTokCreatorRules) {
  const refusal = tiktokChoiceRefusal(options) ?? tiktokCreatorRefusal(options.privacyLevel!, null, rules);
  if (refusal) {
    const detail = refusal.code === 'privacyNotOffered' ? `${t.platform.names.tiktok}: ${refusal.level}` : '';
    throw new PermanentPlatformError('tiktok', { kind: 'rule_refused', refusal, subject: rules.nickname }, detail);
  }
  return tiktokPostInfo({ ...options, privacyLevel: options.privacyLevel! }, rules);
}

/** creator_info/query ("Query Creator Info"): who posts, and what their account allows now. */
async function creatorRules(ctx: ConnectorContext): Promise<TikTokCreatorRules> {
  const data = (await client(ctx).call(`${apiBase(ctx)}/post/publish/creator_info/query/`, json({}))).body?.data ?? {};
  const username: string = data.creator_username ?? '';
  return {
    nickname: data.creator_nickname || username,
    username,
    privacyLevelOptions: Array.isArray(data.privacy_level_options) ? data.privacy_level_options.map(String) : [],
    commentDisabled: Boolean(data.comment_disabled),
    duetDisabled: Boolean(data.duet_disabled),
    stitchDisabled: Boolean(data.stitch_disabled),
    maxVideoPostDurationSec: Number(data.max_video_post_duration_sec) || 0,
  };
}

async function publishVideo(ctx: ConnectorContext, video: VideoUpload): Promise<Published> {
  await checkFile(video);
  const api = client(ctx);
  const saved = (await ctx.progress.load(video.publishKey)) as Progress | undefined;
  if (saved && 'done' in saved) return saved.done;

  let started = saved && 'publishId' in saved ? saved : undefined;
  if (started) {
    // A publish id TikTok no longer knows (expired, or lost on its side) proves nothing either
    // way: the listing below says whether it became a post before anything is uploaded again.
    const status = await fetchStatus(api, ctx, started.publishId).catch((error) => {
      if (error instanceof PermanentPlatformError) return { status: 'UNKNOWN' } as PostStatus;
      throw error;
    });
    const uploaded = status.uploaded_bytes ?? 0;
    if (status.status === 'UNKNOWN') {
      started = undefined;
    } else if (status.status === 'PROCESSING_UPLOAD' && uploaded < video.size) {
      // Chunks count whole, so resume at the chunk holding the first missing byte.
      const resumed = await uploadChunks(api, started, video, uploaded - (uploaded % started.chunkSize)).then(
        () => true,
        (error) => {
          // An upload URL lives an hour; a publish that never got all its bytes can never post, so start afresh.
          if (error instanceof PermanentPlatformError) return false;
          throw error;
        },
      );
      if (!resumed) started = undefined;
    } else if (status.status === 'FAILED') {
      started = undefined;
    }
    if (!started) await ctx.progress.save(video.publishKey, {});
  }
  if (!started) {
    const existing = await findWith(api, ctx, video.publishKey);
    if (existing) {
      await ctx.progress.save(video.publishKey, { done: existing });
      return existing;
    }
    const rules = await creatorRules(ctx);
    const chunkSize = chunkSizeFor(video.size);
    const init = await api.call(
      `${apiBase(ctx)}/post/publish/video/init/`,
      json({
        post_info: {
          title: captionWithMarker([video.title, video.description, hashtags(video.tags)], video.publishKey, tiktokCaptionLimit),
          ...postInfo(video.options.tiktok ?? {}, rules),
        },
        source_info: {
          source: 'FILE_UPLOAD',
          video_size: video.size,
          chunk_size: chunkSize,
          total_chunk_count: Math.max(1, Math.floor(video.size / chunkSize)),
        },
      }),
    );
    const data = init.body?.data ?? {};
    if (!data.publish_id || !data.upload_url) {
      throw new TransientPlatformError('tiktok', 'unavailable', 'no publish_id or upload_url in the answer');
    }
    started = { publishId: data.publish_id, uploadUrl: data.upload_url, chunkSize };
    await ctx.progress.save(video.publishKey, started);
    await uploadChunks(api, started, video, 0);
  }

  const publishId = started.publishId;
  const postId = await api.poll(async () => {
    const status = await fetchStatus(api, ctx, publishId);
    if (status.status === 'FAILED') {
      await ctx.progress.save(video.publishKey, {});
      throw new PermanentPlatformError('tiktok', 'processing_failed', status.fail_reason ?? 'FAILED');
    }
    if (status.status !== 'PUBLISH_COMPLETE') return null;
    return status.publicaly_available_post_id?.[0] === undefined ? '' : String(status.publicaly_available_post_id[0]);
  });

  let done: Published;
  if (postId) {
    const query = await api.call(`${apiBase(ctx)}/video/query/?fields=id,share_url`, json({ filters: { video_ids: [postId] } }));
    const shareUrl: string | undefined = query.body?.data?.videos?.[0]?.share_url;
    done = { remoteId: postId, url: shareUrl ? cleanUrl(shareUrl) : `https://www.tiktok.com/video/${postId}` };
  } else {
    // A private post has no public id; the publish id still identifies it, the profile page shows it.
    const creator = await api.call(`${apiBase(ctx)}/post/publish/creator_info/query/`, json({}));
    done = { remoteId: publishId, url: `https://www.tiktok.com/@${creator.body?.data?.creator_username ?? ''}` };
  }
  await ctx.progress.save(video.publishKey, { done });
  return done;
}

/**
 * After a stop: TikTok posts a FILE_UPLOAD direct post once the last chunk has arrived and
 * processing ends (developers.tiktok.com/doc/content-posting-api-reference-direct-post and "Get
 * Post Status": PROCESSING_UPLOAD until every chunk is in, then PROCESSING_DOWNLOAD and
 * PUBLISH_COMPLETE). The Content Posting API has no call that cancels a publish, so a publish still
 * short of bytes is left to expire with its upload URL (an hour), and one that has all its bytes
 * is past the point of no return.
 */
async function settleStopped(ctx: ConnectorContext, video: VideoUpload): Promise<PublishStopped> {
  const saved = (await ctx.progress.load(video.publishKey)) as Progress | undefined;
  if (!saved || !('publishId' in saved)) return new PublishStopped('tiktok', false, 'no publish was started');
  const read = () =>
    fetchStatus(client(ctx), ctx, saved.publishId).catch((error) => {
      // A publish id TikTok does not know cannot become a post.
      if (error instanceof PermanentPlatformError) return { status: 'UNKNOWN' } as PostStatus;
      throw error;
    });
  const receivedBytes = (status: PostStatus) =>
    status.status === 'PROCESSING_UPLOAD' && (status.uploaded_bytes ?? 0) < video.size ? (status.uploaded_bytes ?? 0) : null;
  // TikTok posts once it has every byte, so a short count is believed only once it holds still.
  const status = await readWhenStill(ctx, read, receivedBytes);
  if (receivedBytes(status) !== null || status.status === 'FAILED' || status.status === 'UNKNOWN') {
    return new PublishStopped('tiktok', false, `publish ${saved.publishId} is ${status.status} and will not post`);
  }
  return new PublishStopped('tiktok', true, `publish ${saved.publishId} has every byte (${status.status})`);
}

export const tiktok: TikTokConnector = {
  platform: 'tiktok',

  async publish(ctx, video) {
    return stoppable(
      ctx,
      'tiktok',
      () => publishVideo(ctx, video),
      (cleanup) => settleStopped(cleanup, video),
    );
  },

  async fetchCreator(ctx) {
    const creator = (await client(ctx).call(`${apiBase(ctx)}/post/publish/creator_info/query/`, json({}))).body?.data ?? {};
    const username: string = creator.creator_username ?? '';
    return {
      id: username,
      name: creator.creator_nickname || username,
      description: '',
      url: username ? `https://www.tiktok.com/@${username}` : '',
    };
  },

  // "Query Videos" (developers.tiktok.com/doc/tiktok-api-v1-video-query, kept by v2): "Number of
  // video ids should not be larger than 20 at a time."
  statsBatchSize: 20,

  async fetchStatsOf(ctx, remoteIds) {
    const answer = await client(ctx).call(
      `${apiBase(ctx)}/video/query/?fields=id,view_count,like_count,comment_count`,
      json({ filters: { video_ids: remoteIds } }),
    );
    // The video object's `id` is a string here (unlike the bare integer video/init's status sends).
    const found = new Map<string, VideoStats>();
    for (const video of answer.body?.data?.videos ?? []) {
      found.set(String(video.id), {
        views: Number(video.view_count ?? 0),
        likes: Number(video.like_count ?? 0),
        comments: Number(video.comment_count ?? 0),
      });
    }
    return found;
  },

  creatorRules,

  async fetchStats(ctx, remoteId) {
    const answer = await client(ctx).call(
      `${apiBase(ctx)}/video/query/?fields=id,view_count,like_count,comment_count`,
      json({ filters: { video_ids: [remoteId] } }),
    );
    const found = answer.body?.data?.videos?.[0];
    if (!found) throw new PermanentPlatformError('tiktok', 'video_not_found', remoteId);
    return {
      views: Number(found.view_count ?? 0),
      likes: Number(found.like_count ?? 0),
      comments: Number(found.comment_count ?? 0),
    };
  },
};
