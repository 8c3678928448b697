import type { Static } from '@sinclair/typebox';
import type { FacebookPostOptions as FacebookPostOptionsSchema } from '../contract/posting-rules';

type FacebookPostOptions = Static<typeof FacebookPostOptionsSchema>;
import { facebookDefaults, facebookLimits, facebookPostRefusal } from '../posting-rules/facebook';
import type { PlatformDescriptor, PostingRules } from './descriptor';

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
  // Reels Publishing API, "Rate Limit": 30 API-published Reels per Page within a moving 24 hours.
  cap: { window: 'moving', windowHours: 24, per: 'profile', live: false },
  rules: {
    defaults: facebookDefaults,
    choiceRefusal: () => null,
    textRefusal: () => null,
    postRefusal: (_options, texts, video) => facebookPostRefusal(texts, video),
  } satisfies PostingRules<FacebookPostOptions>,
  can: { editAfterPublish: false, delete: false, statistics: true, healthRead: true },
  consent: 'installation-app',
} as const satisfies PlatformDescriptor;
