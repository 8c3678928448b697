import type { TikTokPostOptions } from '../contract';
import {
  tiktokCaptionLimit,
  tiktokCaptionRefusal,
  tiktokChoiceRefusal,
  tiktokCreatorRefusal,
  tiktokDefaults,
  type TikTokPrivacyLevel,
} from '../posting-rules/tiktok';
import type { PlatformDescriptor, PostingRules } from './descriptor';

/** TikTok, through the Content Posting API (Direct Post) and the installation's TikTok app. */
export const tiktok = {
  id: 'tiktok',
  inSpec: true,
  fields: {
    switchedOn: 'isActiveTikTok',
    ticked: 'inTikTok',
    url: 'urlTiktok',
    error: 'errorTiktok',
    views: 'viewsTikTok',
    likes: 'likesTikTok',
    comments: 'commentsTikTok',
  },
  columns: {
    switchedOn: 'is_active_tiktok',
    ticked: 'in_tiktok',
    url: 'url_tiktok',
    views: 'views_tiktok',
    likes: 'likes_tiktok',
    comments: 'comments_tiktok',
  },
  colour: '#0f172a',
  dash: [10, 5],
  limits: { caption: tiktokCaptionLimit },
  textCounters: [{ field: 'caption', unit: 'characters', limit: tiktokCaptionLimit }],
  // "Content Posting API – Direct Post": a daily post cap per creator, counted over a moving 24 hours.
  cap: { window: 'moving', windowHours: 24, per: 'profile', live: false },
  rules: {
    defaults: tiktokDefaults,
    choiceRefusal: tiktokChoiceRefusal,
    // The caption's room depends on the publish key, known only once the post is made.
    textRefusal: () => null,
    postRefusal: (options, texts, video, creator) =>
      tiktokCaptionRefusal(texts, video.publishKey) ??
      (creator && tiktokCreatorRefusal(options.privacyLevel as TikTokPrivacyLevel, video, creator)),
  } satisfies PostingRules<TikTokPostOptions>,
  can: { editAfterPublish: false, delete: false, statistics: true, healthRead: true },
  consent: 'installation-app',
  appVariables: ['TIKTOK_CLIENT_KEY', 'TIKTOK_CLIENT_SECRET'],
} as const satisfies PlatformDescriptor;
