import { captionWithMarker } from '../../../src/lib/posting-rules/caption';
import { facebookCaption, facebookLimits } from '../../../src/lib/platforms/facebook';
import { checkFile, fileRange, hasMarker, PlatformClient, stoppable } from '../client';
import {
  errorForStatus,
  retryAfterOf,
  PermanentPlatformError,
  PostingCapError,
  ProfileAuthError,
  PublishStopped,
  TransientPlatformError,
  type PlatformError,
} from '../errors';
import { batchFigures, graphForm, graphVersion } from '../meta-graph';
import type { Connector, ConnectorContext, Credentials, ProfileInfo, Published, VideoStats, VideoUpload } from '../types';

/**
 * Facebook Reels on a Page through the Reels Publishing API
 * (developers.facebook.com/docs/video-api/guides/reels-publishing): POST /{page-id}/video_reels
 * upload_phase=start gives a video id and its rupload.facebook.com URL, the bytes go there
 * resumably, upload_phase=finish with video_state=PUBLISHED publishes it with its description, and
 * /{video-id}?fields=status tells when it is live. The publish key is the description's last line,
 * so the Page's Reels listing finds an upload whose answer was lost.
 */

/** A Page token from Facebook Login for Business, and the Page it posts to (the consent link's remote id). */
export interface FacebookCredentials extends Credentials {
  pageId: string;
}

export interface FacebookConnector extends Connector<FacebookCredentials> {
  /** The Page the token reaches: the health check's cheap read. */
  fetchPage(ctx: ConnectorContext<FacebookCredentials>): Promise<ProfileInfo>;
}

type Context = ConnectorContext<FacebookCredentials>;
/** `finished` once the finish call was answered: from then on the Reel is Meta's to publish. */
interface Session {
  videoId: string;
  uploadUrl: string;
  finished: boolean;
}
type Progress = Session | { done: Published };

interface Phase {
  status?: 'not_started' | 'in_progress' | 'complete' | 'error';
  bytes_transferred?: number;
  error?: { message?: string };
}
interface VideoStatus {
  video_status?: string;
  uploading_phase?: Phase;
  processing_phase?: Phase;
  publishing_phase?: Phase;
}

/**
 * Meta's throttling, which keeps its Graph code ("Rate Limits", developers.facebook.com/docs/graph-api/overview/rate-limiting:
 * 4 application, 17 account, 32 Page, 613 custom, 80001 a Page's business use case): at a Reel's
 * start, 32 is the Page's 30 Reels a day (Reels Publishing API, "Rate Limit": "enforced on the
 * POST /{page_id}/video_reels endpoint").
 */
class GraphThrottled extends TransientPlatformError {
  constructor(
    readonly code: number,
    detail: string,
    status: number,
    retryAfterMs: number | undefined,
  ) {
    super('facebook', 'rate_limited', detail, status, retryAfterMs);
  }
}
const throttlingCodes = [4, 17, 32, 613, 80001];

/** rupload's refusal of an offset other than the bytes it holds: the upload resumes where it says. */
class OffsetRefused extends PermanentPlatformError {}

function readGraphError(status: number, body: any, headers: Headers): PlatformError {
  const error = body?.error;
  if (!error && body?.debug_info) {
    const detail = `${body.debug_info.type}: ${body.debug_info.message}`;
    if (body.debug_info.type === 'OffsetInvalidError') return new OffsetRefused('facebook', 'rejected', detail, status);
    return body.debug_info.retriable
      ? new TransientPlatformError('facebook', 'unavailable', detail, status)
      : new PermanentPlatformError('facebook', 'rejected', detail, status);
  }
  const code: number | undefined = error?.code;
  const detail: string = error?.error_user_msg || error?.message || `HTTP ${status}`;
  if (code === 190 || status === 401) return new ProfileAuthError('facebook', detail, status);
  if (code && throttlingCodes.includes(code)) return new GraphThrottled(code, detail, status, retryAfterOf(headers));
  if (error?.is_transient || code === 1 || code === 2) {
    return new TransientPlatformError('facebook', 'unavailable', detail, status, retryAfterOf(headers));
  }
  // 100 a parameter, 10 and 200–299 a permission the grant lacks: asking again changes nothing.
  if (code === 100 || code === 10 || (code && code >= 200 && code <= 299))
    return new PermanentPlatformError('facebook', 'rejected', detail, status);
  return errorForStatus('facebook', status, detail, headers);
}

const graph = (ctx: Context, path: string) => `${ctx.endpoints['graph.facebook.com']}/${graphVersion}/${path}`;
const client = (ctx: Context) => new PlatformClient(ctx, 'facebook', readGraphError);
const reelUrl = (videoId: string) => `https://www.facebook.com/reel/${videoId}`;

async function findWith(api: PlatformClient, ctx: Context, publishKey: string): Promise<Published | null> {
  // An ambiguous failure is recent: the Page's newest 50 Reels are where it would be.
  const answer = await api.call(graph(ctx, `${ctx.credentials.pageId}/video_reels?fields=id,description&limit=50`));
  const match = (answer.body?.data ?? []).find((reel: any) => hasMarker(reel.description, publishKey));
  return match ? { remoteId: String(match.id), url: reelUrl(String(match.id)) } : null;
}

async function readStatus(api: PlatformClient, ctx: Context, videoId: string): Promise<VideoStatus> {
  const answer = await api.call(graph(ctx, `${videoId}?fields=status`));
  return answer.body?.status ?? {};
}

/** A video Meta no longer knows (code 100) reads as none; the listing then says whether it was published. */
async function readStatusIfKnown(api: PlatformClient, ctx: Context, videoId: string): Promise<VideoStatus | null> {
  return readStatus(api, ctx, videoId).catch((error) => {
    if (error instanceof PermanentPlatformError) return null;
    throw error;
  });
}

const failedPhase = (status: VideoStatus) =>
  [status.uploading_phase, status.processing_phase, status.publishing_phase].find((phase) => phase?.status === 'error');
const published = (status: VideoStatus) => status.publishing_phase?.status === 'complete';
const bytesHeld = (status: VideoStatus, size: number) =>
  status.uploading_phase?.status === 'complete' ? size : Number(status.uploading_phase?.bytes_transferred ?? 0);

/**
 * Whether a finish call arrived, whatever became of its answer: Meta publishes the Reel from then
 * on. Its publishing phase has begun, or, while processing still holds that back, the Page's Reels
 * list the description it set, key and all. A finish of an incomplete upload is refused, so an
 * upload short of bytes was never finished.
 */
async function finishArrived(api: PlatformClient, ctx: Context, status: VideoStatus, video: VideoUpload): Promise<boolean> {
  if ((status.publishing_phase?.status ?? 'not_started') !== 'not_started') return true;
  if (bytesHeld(status, video.size) < video.size) return false;
  return (await findWith(api, ctx, video.publishKey)) !== null;
}

/**
 * Sends the file from `from` on, read as it is sent. rupload takes the bytes it holds as `offset`
 * and refuses any other; a refused offset (the bytes of a dropped request still landing when the
 * status was read) is corrected from status.uploading_phase.bytes_transferred, as long as each
 * correction moves forward. A dropped request is the next attempt's to resume, from the status.
 */
async function uploadBytes(api: PlatformClient, ctx: Context, session: Session, video: VideoUpload, from: number) {
  let offset = from;
  while (offset < video.size) {
    const sent = offset;
    const answer = await api
      .call(session.uploadUrl, {
        method: 'POST',
        auth: 'oauth',
        headers: {
          offset: String(sent),
          file_size: String(video.size),
          'content-type': 'application/octet-stream',
          'content-length': String(video.size - sent),
        },
        body: fileRange(video, sent),
      })
      .catch((error) => {
        if (error instanceof OffsetRefused) return null;
        throw error;
      });
    if (answer?.body?.success === true) return;
    if (answer) throw new TransientPlatformError('facebook', 'unavailable', JSON.stringify(answer.body ?? '').slice(0, 300));
    offset = bytesHeld(await readStatus(api, ctx, session.videoId), video.size);
    if (offset <= sent) throw new TransientPlatformError('facebook', 'unavailable', 'the upload made no progress');
  }
}

async function publishReel(ctx: Context, video: VideoUpload): Promise<Published> {
  await checkFile(video);
  const api = client(ctx);
  const saved = (await ctx.progress.load(video.publishKey)) as Progress | undefined;
  if (saved && 'done' in saved) return saved.done;
  const settle = async (done: Published) => {
    await ctx.progress.save(video.publishKey, { done });
    return done;
  };

  let session = saved && 'videoId' in saved ? saved : undefined;
  let offset = 0;
  if (session) {
    const status = await readStatusIfKnown(api, ctx, session.videoId);
    if (status && published(status)) return settle({ remoteId: session.videoId, url: reelUrl(session.videoId) });
    // A video Meta lost or failed is begun again; the listing first rules out that it went live.
    if (!status || failedPhase(status)) session = undefined;
    else {
      offset = bytesHeld(status, video.size);
      if (!session.finished) session.finished = await finishArrived(api, ctx, status, video);
    }
  }
  if (!session) {
    const existing = await findWith(api, ctx, video.publishKey);
    if (existing) return settle(existing);
    const started = await api
      .call(graph(ctx, `${ctx.credentials.pageId}/video_reels`), graphForm({ upload_phase: 'start' }))
      .catch((error) => {
        if (error instanceof GraphThrottled && error.code === 32) throw new PostingCapError('facebook', error.detail, error.status ?? 400);
        throw error;
      });
    const videoId = String(started.body?.video_id ?? '');
    if (!videoId) throw new TransientPlatformError('facebook', 'unavailable', 'no video id in the answer');
    session = {
      videoId,
      uploadUrl: started.body?.upload_url ?? `https://rupload.facebook.com/video-upload/${graphVersion}/${videoId}`,
      finished: false,
    };
    await ctx.progress.save(video.publishKey, session);
  }

  if (!session.finished) {
    await uploadBytes(api, ctx, session, video, offset);
    const description = captionWithMarker([facebookCaption(video)], video.publishKey, facebookLimits.caption);
    await api.call(
      graph(ctx, `${ctx.credentials.pageId}/video_reels`),
      graphForm({ upload_phase: 'finish', video_id: session.videoId, video_state: 'PUBLISHED', description }),
    );
    session.finished = true;
    await ctx.progress.save(video.publishKey, session);
  }

  const { videoId } = session;
  await api.poll(async () => {
    const status = await readStatus(api, ctx, videoId);
    if (published(status)) return true;
    const failed = failedPhase(status);
    if (failed) {
      await ctx.progress.save(video.publishKey, {});
      throw new PermanentPlatformError('facebook', 'processing_failed', failed.error?.message ?? status.video_status ?? 'error');
    }
    return null;
  });
  return settle({ remoteId: videoId, url: reelUrl(videoId) });
}

/**
 * After a stop: a Reel goes live only with upload_phase=finish and video_state=PUBLISHED (the Reels
 * Publishing API's step 3), which a stopped publish does not send once its signal fired. An upload
 * never finished is not published; one whose finish arrived, its answer lost to the stop, is.
 */
async function settleStopped(ctx: Context, video: VideoUpload): Promise<PublishStopped> {
  const saved = (await ctx.progress.load(video.publishKey)) as Progress | undefined;
  if (!saved || !('videoId' in saved)) return new PublishStopped('facebook', false, 'no upload was started');
  if (saved.finished) return new PublishStopped('facebook', true, `video ${saved.videoId} was finished`);
  const api = client(ctx);
  const status = await readStatusIfKnown(api, ctx, saved.videoId);
  const live = status !== null && (await finishArrived(api, ctx, status, video));
  return new PublishStopped('facebook', live, `video ${saved.videoId} ${live ? 'was finished' : 'was not finished'}`);
}

/**
 * A Reel's figures from video_insights (developers.facebook.com/docs/graph-api/reference/video/video_insights,
 * "Reels Insights"): plays are blue_reels_play_count, likes the sum of every reaction in
 * post_video_likes_by_reaction_type, comments the COMMENT count of post_video_social_actions.
 */
const insightsPath = (videoId: string) =>
  `${graphVersion}/${videoId}/video_insights?metric=blue_reels_play_count,post_video_likes_by_reaction_type,post_video_social_actions`;

function insightValues(body: any): VideoStats {
  const values: Record<string, unknown> = Object.fromEntries(
    (body?.data ?? []).map((metric: any) => [metric.name, metric.values?.[0]?.value]),
  );
  const reactions = (values.post_video_likes_by_reaction_type ?? {}) as Record<string, number>;
  const actions = (values.post_video_social_actions ?? {}) as Record<string, number>;
  return {
    views: Number(values.blue_reels_play_count ?? 0),
    likes: Object.values(reactions).reduce((sum, count) => sum + Number(count), 0),
    comments: Number(actions.COMMENT ?? 0),
  };
}

export const facebook: FacebookConnector = {
  platform: 'facebook',

  async publish(ctx, video) {
    return stoppable(
      ctx,
      'facebook',
      () => publishReel(ctx, video),
      (cleanup) => settleStopped(cleanup, video),
    );
  },

  async fetchStats(ctx, remoteId) {
    const answer = await client(ctx).call(`${ctx.endpoints['graph.facebook.com']}/${insightsPath(remoteId)}`);
    return insightValues(answer.body);
  },

  // A Graph batch request ("Batch Requests", developers.facebook.com/docs/graph-api/batch-requests)
  // carries up to 50 calls, each answer a JSON-encoded string in its own {code, body}.
  statsBatchSize: 50,

  async fetchStatsOf(ctx, remoteIds) {
    const batch = remoteIds.map((remoteId) => ({ method: 'GET', relative_url: insightsPath(remoteId) }));
    const answer = await client(ctx).call(`${ctx.endpoints['graph.facebook.com']}/`, graphForm({ batch: JSON.stringify(batch) }));
    return batchFigures(answer.body, remoteIds, readGraphError, insightValues);
  },

  async fetchPage(ctx) {
    const answer = await client(ctx).call(graph(ctx, `${ctx.credentials.pageId}?fields=id,name,link`));
    const page = answer.body ?? {};
    return { id: String(page.id ?? ctx.credentials.pageId), name: page.name ?? '', description: '', url: page.link ?? '' };
  },
};
