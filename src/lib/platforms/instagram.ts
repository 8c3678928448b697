import type { InstagramPostOptions } from '../contract';
import { instagramDefaults, instagramLimits, instagramPostRefusal, instagramTextRefusal } from '../posting-rules/instagram';
import type { PlatformDescriptor, PostingRules } from './descriptor';

/** Instagram Reels, through the Graph API (Instagram API with Instagram or Facebook Login). */
export const instagram = {
  id: 'instagram',
  inSpec: true,
  fields: {
    switchedOn: 'isActiveInstagram',
    ticked: 'inInstagram',
    url: 'urlInstagram',
    error: 'errorInstagram',
    views: 'viewsInstagram',
    likes: 'likesInstagram',
    comments: 'commentsInstagram',
  },
  columns: {
    switchedOn: 'is_active_instagram',
    ticked: 'in_instagram',
    url: 'url_instagram',
    views: 'views_instagram',
    likes: 'likes_instagram',
    comments: 'comments_instagram',
  },
  colour: '#c026d3',
  dash: [2, 4],
  limits: instagramLimits,
  textCounters: [
    { field: 'caption', unit: 'characters', limit: instagramLimits.caption },
    { field: 'caption', unit: 'hashtags', limit: instagramLimits.hashtags },
  ],
  // "IG User Content Publishing Limit": quota_total posts per quota_duration, both read from the platform.
  cap: { window: 'moving', windowHours: null, per: 'profile', live: true },
  rules: {
    defaults: instagramDefaults,
    // Every Instagram choice has a default.
    choiceRefusal: () => null,
    textRefusal: instagramTextRefusal,
    postRefusal: (options, texts, video) => instagramPostRefusal(options, texts, video),
  } satisfies PostingRules<InstagramPostOptions>,
  can: { editAfterPublish: false, delete: false, statistics: true, healthRead: true },
  consent: 'installation-app',
  appVariables: ['INSTAGRAM_APP_ID', 'INSTAGRAM_APP_SECRET'],
} as const satisfies PlatformDescriptor;
