import type { ServerPlatform } from '../types';
import { facebookCap } from './caps';
import { facebook } from './connector';
import { facebookLink } from './oauth';

/**
 * Graph calls a Page's statistics reads may make an hour. Calls with a Page token count against the
 * Page's own business-use-case limit ("Rate Limits", developers.facebook.com/docs/graph-api/overview/rate-limiting,
 * "Pages": 4,800 × the Page's engaged users within a moving 24 hours), which no read tells ahead;
 * a Page of one engaged user has 200 an hour, of which the reads leave a quarter to publishing.
 */
const facebookReadCallsPerHour = 150;

/** Facebook Reels on a Page, through the installation's Meta app and a Page chosen in Meta's own consent dialog. */
export const facebookPlatform: ServerPlatform = {
  connector: facebook,
  link: facebookLink,
  apiHost: 'graph.facebook.com',
  whoAmI: (ctx) => facebook.fetchPage(ctx),
  accountName: (info) => info.name || info.id,
  // Nothing rotates: the Page token is kept as granted, and a renewal only asks whether Meta still honours it.
  refreshRotates: false,
  // A Page token has no end to warn of (oauth.ts); should Meta ever date one, a week, as Instagram's.
  endingNoticeDays: 7,
  cap: (account) => facebookCap(account),
  // A profile links one Page, so the profile stands for its Page.
  readQuota: (account, _settings, now) => ({
    holder: `facebook:profile-${account.id}`,
    period: now.toISOString().slice(0, 13),
    limit: facebookReadCallsPerHour,
  }),
  // Each operation of a Graph batch counts as a call.
  statsReadUnits: (posts) => posts,
  credentials: {
    linked: (base, credentials, link) => ({ ...base, credentials: { ...credentials, pageId: link.remoteId! } }),
  },
};
