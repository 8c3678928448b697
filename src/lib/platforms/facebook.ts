import type { NoPlatformChoices } from '../contract/posting-rules';
import { captionRoom, captionText, hashtags } from '../posting-rules/caption';
import { tenths, type PostedVideo, type Refusal } from '../posting-rules/refusal';
import type { PlatformDescriptor, PostingRules } from './descriptor';

/**
 * Facebook's rules for a Reel on a Page, from the Reels Publishing API
 * (developers.facebook.com/docs/video-api/guides/reels-publishing, "Video Specifications"): 3 to 90
 * seconds, 9:16, at least 540 × 960, 24 to 60 frames a second; "30 API-published posts within a
 * 24-hour moving period" per Page. Every variant is rendered at 1080 × 1920 (server/media/render.ts),
 * whatever its source's frame (a 16:9 source sits inside the vertical frame over its background), so
 * the frame rule holds for every variant the product makes; it is checked still, as the length and
 * the frame rate (the source's) are. The description is a Page post's text, which Facebook
 * takes up to 63,206 characters; the key's line takes its room as on the other platforms.
 */
export const facebookLimits = {
  caption: 63_206,
  minSeconds: 3,
  maxSeconds: 90,
  minFps: 24,
  maxFps: 60,
  minWidth: 540,
  minHeight: 960,
  dailyReels: 30,
};

/** No choice of a Reel is the operator's: a Page's Reel is public, as the API publishes it. */
export const facebookDefaults = {} as const satisfies NoPlatformChoices;

/** The Reel's description before the publish key: title, description, the tags as hashtags. */
export function facebookCaption(texts: { title: string; description: string; tags: string[] }): string {
  return captionText([texts.title, texts.description, hashtags(texts.tags)]);
}

/** The description, the length, the frame and the frame rate against Facebook's rules. */
export function facebookPostRefusal(
  texts: { title: string; description: string; tags: string[] },
  video: PostedVideo & { publishKey: string },
): Refusal | null {
  const length = facebookCaption(texts).length;
  const room = captionRoom(facebookLimits.caption, video.publishKey);
  if (length > room) return { code: 'captionTooLong', platform: 'facebook', length, room };
  const format = 'Facebook Reels';
  const duration = video.durationSeconds;
  if (duration !== null && duration > facebookLimits.maxSeconds) {
    return { code: 'tooLong', format, video: video.number, seconds: tenths(duration), limit: facebookLimits.maxSeconds };
  }
  if (duration !== null && duration < facebookLimits.minSeconds) {
    return { code: 'tooShort', format, video: video.number, seconds: tenths(duration), limit: facebookLimits.minSeconds };
  }
  const frame = video.frame ?? null;
  // 9:16 within a pixel's rounding, as an encoder's even sizes leave it (1080 × 1920, 720 × 1280, 540 × 960).
  const vertical = frame !== null && Math.abs(frame.width * 16 - frame.height * 9) <= 16;
  if (frame !== null && (!vertical || frame.width < facebookLimits.minWidth || frame.height < facebookLimits.minHeight)) {
    const { minWidth, minHeight } = facebookLimits;
    return { code: 'frameShape', format, video: video.number, ...frame, shape: '9:16', minWidth, minHeight };
  }
  const fps = video.fps ?? null;
  if (fps !== null && (fps < facebookLimits.minFps || fps > facebookLimits.maxFps)) {
    return { code: 'frameRate', format, video: video.number, fps, min: facebookLimits.minFps, max: facebookLimits.maxFps };
  }
  return null;
}

/** Facebook Reels on a Page, through the Reels Publishing API and the installation's Meta app (Facebook Login for Business). */
export const facebook = {
  id: 'facebook',
  inSpec: false,
  fields: {
    switchedOn: 'isActiveFacebook',
    ticked: 'inFacebook',
    url: 'urlFacebook',
    error: 'errorFacebook',
    views: 'viewsFacebook',
    likes: 'likesFacebook',
    comments: 'commentsFacebook',
  },
  columns: {
    switchedOn: 'is_active_facebook',
    ticked: 'in_facebook',
    url: 'url_facebook',
    views: 'views_facebook',
    likes: 'likes_facebook',
    comments: 'comments_facebook',
  },
  colour: '#2563eb',
  dash: [6, 3, 1, 3],
  limits: facebookLimits,
  textCounters: [{ field: 'caption', unit: 'characters', limit: facebookLimits.caption }],
  // Reels Publishing API, "Rate Limit": 30 API-published Reels per Page within a moving 24 hours.
  cap: { window: 'moving', windowHours: 24, per: 'profile', live: false },
  rules: {
    defaults: facebookDefaults,
    choiceRefusal: () => null,
    textRefusal: () => null,
    postRefusal: (_options, texts, video) => facebookPostRefusal(texts, video),
  } satisfies PostingRules<NoPlatformChoices>,
  can: { editAfterPublish: false, delete: false, statistics: true, healthRead: true },
  consent: 'installation-app',
  appVariables: ['FACEBOOK_APP_ID', 'FACEBOOK_APP_SECRET'],
} as const satisfies PlatformDescriptor;
