import type { PublishedVideo, VideoSummary } from '../../src/lib/contract';
import { idUpload } from './publish-fixtures';

/** A video as the video lists send it: rendered, with no profile, post nor figures yet; `overrides` on top. */
export function videoSummary(id: number, overrides: Partial<VideoSummary> = {}): VideoSummary {
  return {
    id,
    date: '2026-11-21T10:00:00.000Z',
    status: 'success',
    views: 0,
    likes: 0,
    comments: 0,
    viewsInstagram: 0,
    likesInstagram: 0,
    commentsInstagram: 0,
    viewsTikTok: 0,
    likesTikTok: 0,
    commentsTikTok: 0,
    viewsFacebook: 0,
    likesFacebook: 0,
    commentsFacebook: 0,
    urlFacebook: null,
    urlYouTube: null,
    urlInstagram: null,
    urlTiktok: null,
    error: null,
    errorInstagram: null,
    errorTiktok: null,
    errorFacebook: null,
    account: null,
    posts: [],
    ...overrides,
  };
}

/** A video as a set's page sends it: a summary with nothing waiting, planned nor changeable; `overrides` on top. */
export function publishedVideo(id: number, overrides: Partial<PublishedVideo> = {}): PublishedVideo {
  return {
    ...videoSummary(id),
    idUpload,
    url: null,
    posterUrl: null,
    publishNote: null,
    waitReason: null,
    waitKind: null,
    nextAttemptAt: null,
    plannedAt: null,
    changeable: false,
    reach: [],
    ...overrides,
  };
}
