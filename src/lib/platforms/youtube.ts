import { youtubeChoiceRefusal, youtubeDefaults, youtubeLimits, youtubePostRefusal, youtubeTextRefusal } from '../posting-rules/youtube';
import type { PlatformDescriptor, PostingRules } from './descriptor';
import type { YouTubePostOptions } from '../contract';

/** YouTube Shorts, through the YouTube Data API v3 and the profile's own Google OAuth client. */
export const youtube = {
  id: 'youtube',
  inSpec: true,
  // SPEC named YouTube's figures and its failure first, without the platform in them.
  fields: {
    switchedOn: 'isActiveYouTube',
    ticked: 'inYouTube',
    url: 'urlYouTube',
    error: 'error',
    views: 'views',
    likes: 'likes',
    comments: 'comments',
  },
  columns: {
    switchedOn: 'is_active_youtube',
    ticked: 'in_youtube',
    url: 'url_youtube',
    views: 'views',
    likes: 'likes',
    comments: 'comments',
  },
  colour: '#dc2626',
  dash: [],
  limits: youtubeLimits,
  // The tags are not counted: the connector sends what fits of their 500 characters, as it always has.
  textCounters: [
    { field: 'title', unit: 'characters', limit: youtubeLimits.title },
    { field: 'description', unit: 'bytes', limit: youtubeLimits.description },
  ],
  // "Quota Calculator": 100 videos.insert a day per Google Cloud project, resetting at midnight Pacific Time.
  cap: { window: 'pacific-day', per: 'google-project', live: false },
  rules: {
    defaults: youtubeDefaults,
    choiceRefusal: youtubeChoiceRefusal,
    textRefusal: youtubeTextRefusal,
    postRefusal: (_options, texts, video) => youtubePostRefusal(texts, video),
  } satisfies PostingRules<YouTubePostOptions>,
  can: { editAfterPublish: true, delete: true, statistics: true, healthRead: true },
  consent: 'profile-client',
} as const satisfies PlatformDescriptor;
