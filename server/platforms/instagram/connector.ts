import { captionWithMarker } from '../../../src/lib/posting-rules/caption';
import { instagramCaption, instagramDefaults, instagramLimits, instagramTextRefusal } from '../../../src/lib/posting-rules/instagram';
import { checkFile, fileRange, hasMarker, PlatformClient, stoppable } from '../client';
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
import { networkError, type PlatformNetwork } from '../../net/http';
import { batchFigures, graphForm, graphVersion } from '../meta-graph';
import type { ConnectorContext, Endpoints, InstagramConnector, InstagramCredentials, Published, VideoStats, VideoUpload } from '../types';

/**
 * Instagram API with Facebook Login (graph.facebook.com): a Reels container with
 * upload_type=resumable, the bytes posted to rupload.facebook.com, status_code polling,
 * media_publish, the permalink, and insights for statistics. The publish key is the caption's
 * last line, so the account's media listing finds an upload whose answer was lost.
 */

type Context = ConnectorContext<InstagramCredentials>;
interface Container {
  containerId: string;
  uploadUri: string;
  uploaded: boolean;
}
type Progress = Container | { containerId: string; mediaId: string } | { done: Published };

const rateLimitCodes = [4, 17, 32, 613];

function readGraphError(status: number, body: any, headers: Headers): PlatformError {
  if (body?.debug_info) {
    const detail = `${body.debug_info.type}: ${body.debug_info.message}`;
    return body.debug_info.retriable
      ? new TransientPlatformError('instagram', 'unavailable', detail, status)
      : new PermanentPlatformError('instagram', 'rejected', detail, status);
  }
  const error = body?.error ?? {};
  const code: number | undefined = error.code;
  const detail: string = error.error_user_msg || error.message || `HTTP ${status}`;
  if (code === 190 || code === 102 || status === 401) return new ProfileAuthError('instagram', detail, status);
  if ((code && rateLimitCodes.includes(code)) || (code && code >= 80001 && code <= 80014)) {
    return new TransientPlatformError('instagram', 'rate_limited', detail, status, retryAfterOf(headers));
  }
  if (code === 9 && error.error_subcode === 2207042) {
    return new PostingCapError('instagram', detail, status);
  }
  if (error.is_transient || code === 1 || code === 2) {
    return new TransientPlatformError('instagram', 'unavailable', detail, status, retryAfterOf(headers));
  }
  return errorForStatus('instagram', status, detail, headers);
}

const graph = (ctx: Context, path: string) => `${ctx.endpoints['graph.facebook.com']}/${graphVersion}/${path}`;
function insightValues(body: any): VideoStats {
  const values = Object.fromEntries(
    (body?.data ?? []).map((metric: any) => [metric.name, Number(metric.values?.[0]?.value ?? metric.total_value?.value ?? 0)]),
  );
  return { views: values.views ?? 0, likes: values.likes ?? 0, comments: values.comments ?? 0 };
}

const client = (ctx: Context) => new PlatformClient(ctx, 'instagram', readGraphError);

async function findWith(api: PlatformClient, ctx: Context, publishKey: string): Promise<Published | null> {
  // An ambiguous failure is recent: the newest 50 media are where it would be.
  const answer = await api.call(graph(ctx, `${ctx.credentials.igUserId}/media?fields=id,caption,permalink&limit=50`));
  const match = (answer.body?.data ?? []).find((media: any) => hasMarker(media.caption, publishKey));
  return match ? { remoteId: String(match.id), url: match.permalink } : null;
}

async function uploadBytes(api: PlatformClient, container: Container, video: VideoUpload) {
  // Meta documents no way to ask how many bytes arrived, so an interrupted upload starts again
  // at offset 0 into the same container: one container still means one post.
  const answer = await api.call(container.uploadUri, {
    method: 'POST',
    auth: 'oauth',
    headers: {
      offset: '0',
      file_size: String(video.size),
      'content-type': 'application/octet-stream',
      'content-length': String(video.size),
    },
    body: fileRange(video, 0),
  });
  if (answer.body?.success !== true) {
    throw new TransientPlatformError('instagram', 'unavailable', JSON.stringify(answer.body ?? '').slice(0, 300));
  }
}

async function containerStatus(api: PlatformClient, ctx: Context, containerId: string): Promise<{ code: string; status: string }> {
  const answer = await api.call(graph(ctx, `${containerId}?fields=status_code,status`));
  return { code: answer.body?.status_code ?? 'IN_PROGRESS', status: answer.body?.status ?? '' };
}

/**
 * The Reels container's own choices (developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/media:
 * share_to_feed "true" shows the Reel in the feed as well as in the Reels tab; thumb_offset is the
 * cover frame's position in milliseconds). A Reel shared to the feed was what every post got before.
 */
function reelsOptions(video: VideoUpload): Record<string, string> {
  const options = video.options.instagram ?? {};
  return {
    share_to_feed: String(options.shareToFeed ?? instagramDefaults.shareToFeed),
    ...(options.thumbOffset === undefined ? {} : { thumb_offset: String(options.thumbOffset) }),
  };
}

async function publishReel(ctx: Context, video: VideoUpload): Promise<Published> {
  await checkFile(video);
  const api = client(ctx);
  const saved = (await ctx.progress.load(video.publishKey)) as Progress | undefined;
  if (saved && 'done' in saved) return saved.done;
  const finish = async (mediaId: string) => {
    const answer = await api.call(graph(ctx, `${mediaId}?fields=permalink`));
    const done = { remoteId: mediaId, url: answer.body?.permalink ?? '' };
    await ctx.progress.save(video.publishKey, { done });
    return done;
  };
  if (saved && 'mediaId' in saved) return finish(saved.mediaId);

  let container = saved && 'uploadUri' in saved ? saved : undefined;
  if (container) {
    // A container Instagram no longer knows is gone: the listing below says whether it was published.
    const { code } = await containerStatus(api, ctx, container.containerId).catch((error) => {
      if (error instanceof PermanentPlatformError) return { code: 'EXPIRED' };
      throw error;
    });
    if (code === 'PUBLISHED') {
      // media_publish went through but its answer was lost: the listing holds the post.
      const existing = await findWith(api, ctx, video.publishKey);
      if (!existing) throw new TransientPlatformError('instagram', 'processing_timeout', 'published, not listed yet');
      await ctx.progress.save(video.publishKey, { done: existing });
      return existing;
    }
    if (code === 'ERROR' || code === 'EXPIRED') container = undefined;
    else if (code === 'FINISHED') container.uploaded = true;
  }
  if (!container) {
    const existing = await findWith(api, ctx, video.publishKey);
    if (existing) {
      await ctx.progress.save(video.publishKey, { done: existing });
      return existing;
    }
    // Instagram refuses a caption of more than 30 hashtags: refused here too, for a post queued
    // before the route counted the whole caption's (src/lib/posting-rules/instagram.ts).
    const refusal = instagramTextRefusal(video);
    if (refusal) throw new PermanentPlatformError('instagram', { kind: 'rule_refused', refusal, subject: '' }, '');
    const caption = captionWithMarker([instagramCaption(video)], video.publishKey, instagramLimits.caption);
    const created = await api.call(
      graph(ctx, `${ctx.credentials.igUserId}/media`),
      graphForm({ media_type: 'REELS', upload_type: 'resumable', caption, ...reelsOptions(video) }),
    );
    if (!created.body?.id) throw new TransientPlatformError('instagram', 'unavailable', 'no container id in the answer');
    container = {
      containerId: String(created.body.id),
      uploadUri: created.body.uri ?? `https://rupload.facebook.com/ig-api-upload/${graphVersion}/${created.body.id}`,
      uploaded: false,
    };
    await ctx.progress.save(video.publishKey, container);
  }
  if (!container.uploaded) {
    await uploadBytes(api, container, video);
    container.uploaded = true;
    await ctx.progress.save(video.publishKey, container);
  }

  const containerId = container.containerId;
  await api.poll(async () => {
    const { code, status } = await containerStatus(api, ctx, containerId);
    if (code === 'FINISHED') return true;
    if (code === 'ERROR') {
      await ctx.progress.save(video.publishKey, {});
      throw new PermanentPlatformError('instagram', 'processing_failed', status || code);
    }
    if (code === 'EXPIRED') {
      await ctx.progress.save(video.publishKey, {});
      throw new TransientPlatformError('instagram', 'unavailable', 'the container expired');
    }
    return null;
  });
  const published = await api.call(graph(ctx, `${ctx.credentials.igUserId}/media_publish`), graphForm({ creation_id: containerId }));
  const mediaId = String(published.body?.id ?? '');
  if (!mediaId) throw new TransientPlatformError('instagram', 'unavailable', 'no media id in the answer');
  await ctx.progress.save(video.publishKey, { containerId, mediaId });
  return finish(mediaId);
}

/**
 * After a stop: a Reel goes live only with media_publish (developers.facebook.com/docs/instagram-
 * platform/content-publishing: create a container, upload, then publish it), which a stopped
 * publish never calls, its signal having fired. The Graph API offers no call that deletes an
 * unpublished container; it expires by itself (status_code EXPIRED: "not published within 24
 * hours"). Only a publish whose media_publish was sent, or whose container reads PUBLISHED, is live.
 */
async function settleStopped(ctx: Context, video: VideoUpload): Promise<PublishStopped> {
  const saved = (await ctx.progress.load(video.publishKey)) as Progress | undefined;
  if (saved && 'mediaId' in saved) return new PublishStopped('instagram', true, `media ${saved.mediaId} was published`);
  if (!saved || !('containerId' in saved)) return new PublishStopped('instagram', false, 'no container was created');
  const { code } = await containerStatus(client(ctx), ctx, saved.containerId).catch((error) => {
    if (error instanceof PermanentPlatformError) return { code: 'EXPIRED' };
    throw error;
  });
  return new PublishStopped('instagram', code === 'PUBLISHED', `container ${saved.containerId} is ${code}`);
}

export const instagram: InstagramConnector = {
  platform: 'instagram',

  async publish(ctx, video) {
    return stoppable(
      ctx,
      'instagram',
      () => publishReel(ctx, video),
      (cleanup) => settleStopped(cleanup, video),
    );
  },

  async fetchStats(ctx, remoteId) {
    const answer = await client(ctx).call(graph(ctx, `${remoteId}/insights?metric=views,likes,comments`));
    return insightValues(answer.body);
  },

  // Insights are read one media a call; a Graph batch request ("Batch Requests",
  // developers.facebook.com/docs/graph-api/batch-requests) carries up to 50 calls in one request,
  // each answer a JSON-encoded string in its own {code, body}.
  statsBatchSize: 50,

  async fetchStatsOf(ctx, remoteIds) {
    const batch = remoteIds.map((remoteId) => ({
      method: 'GET',
      relative_url: `${graphVersion}/${remoteId}/insights?metric=views,likes,comments`,
    }));
    const answer = await client(ctx).call(`${ctx.endpoints['graph.facebook.com']}/`, graphForm({ batch: JSON.stringify(batch) }));
    return batchFigures(answer.body, remoteIds, readGraphError, insightValues);
  },

  // "IG User Content Publishing Limit": GET /{ig-user-id}/content_publishing_limit?fields=config answers
  // data[0].config = { quota_total, quota_duration (seconds) }. Usage is counted from our own posts;
  // posts made elsewhere show as the cap error, which holds the post as well.
  async publishingLimit(ctx) {
    const answer = await client(ctx).call(graph(ctx, `${ctx.credentials.igUserId}/content_publishing_limit?fields=config`));
    const entry = answer.body?.data?.[0] ?? {};
    const limit = Number(entry.config?.quota_total);
    const windowSeconds = Number(entry.config?.quota_duration);
    if (!Number.isInteger(limit) || !(windowSeconds > 0)) {
      throw new TransientPlatformError('instagram', 'unavailable', 'content_publishing_limit: no config in the answer');
    }
    return { limit, windowSeconds };
  },

  async fetchProfile(ctx) {
    const answer = await client(ctx).call(graph(ctx, `${ctx.credentials.igUserId}?fields=id,username,name,biography`));
    const user = answer.body ?? {};
    return {
      id: String(user.id ?? ctx.credentials.igUserId),
      name: user.name ?? user.username ?? '',
      description: user.biography ?? '',
      url: user.username ? `https://www.instagram.com/${user.username}/` : '',
    };
  },
};

/**
 * Sandbox mode only: the token and account id that Facebook Login gives a live profile, issued
 * by the emulator for the profile's Instagram login and password, through the profile's proxy.
 */
export async function sandboxInstagramLogin(
  network: PlatformNetwork,
  proxy: string,
  endpoints: Endpoints,
  login: string,
  password: string,
): Promise<Pick<InstagramCredentials, 'accessToken' | 'igUserId'>> {
  if (!endpoints.sandbox) throw new Error('Instagram login with a password exists in sandbox mode only');
  const response = await network.fetch(proxy, `${endpoints.sandbox}/_instagram/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login, password }),
  });
  const body = (await response.json().catch((error) => {
    throw error instanceof SyntaxError ? error : networkError(proxy, error);
  })) as any;
  if (!response.ok) throw new ProfileAuthError('instagram', body?.error?.message ?? `HTTP ${response.status}`, response.status);
  return { accessToken: body.access_token, igUserId: body.ig_user_id };
}
