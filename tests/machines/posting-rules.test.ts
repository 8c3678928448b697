import { describe, expect, it } from 'vitest';
import type { TikTokCreatorRules } from '../../src/lib/contract';
import * as t from '../../src/lib/i18n';
import {
  choiceProblems,
  postRefusal,
  refusalField,
  refusalText,
  resolveChoices,
  textRefusal,
  type Refusal,
} from '../../src/lib/posting-rules';
import { captionRoom, captionText, captionWithMarker, hashtags } from '../../src/lib/posting-rules/caption';
import { facebookLimits, facebookPostRefusal } from '../../src/lib/platforms/facebook';
import { instagramDefaults, instagramLimits, instagramPostRefusal } from '../../src/lib/posting-rules/instagram';
import {
  interactionOffByCreator,
  longestTikTokVideo,
  offeredPrivacyLevels,
  tiktokCaptionLimit,
  tiktokCaptionRefusal,
  tiktokChoiceRefusal,
  tiktokCreatorRefusal,
  tiktokDefaults,
  tiktokInteractions,
  tiktokInteractionsOff,
  tiktokPostInfo,
  tiktokPrivacyLevels,
} from '../../src/lib/posting-rules/tiktok';
import {
  youtubeCategories,
  youtubeChoiceRefusal,
  youtubeDefaults,
  youtubeLimits,
  youtubePostRefusal,
} from '../../src/lib/posting-rules/youtube';

/**
 * The platforms' posting rules as their documentation states them, not as the code happens to be:
 * - TikTok, "Content Posting API – Direct Post" (developers.tiktok.com/doc/content-posting-api-reference-direct-post)
 *   and "Query Creator Info" (developers.tiktok.com/doc/content-posting-api-reference-query-creator-info):
 *   post_info.title up to 2200 characters; privacy_level required and one of creator_info's
 *   privacy_level_options; the video no longer than max_video_post_duration_sec; comment_disabled,
 *   duet_disabled and stitch_disabled are the creator's own settings.
 * - TikTok, "Content Sharing Guidelines" (developers.tiktok.com/doc/content-sharing-guidelines): the
 *   options listed follow privacy_level_options, the user picks one and there is no default; the
 *   interactions the creator turned off are greyed out; the user turns the interactions on, none
 *   checked by default; branded content cannot be private; an unaudited client posts SELF_ONLY only.
 * - YouTube, videos.insert (developers.google.com/youtube/v3/docs/videos): title up to 100
 *   characters, description up to 5000; selfDeclaredMadeForKids is the channel's declaration; a Short
 *   is up to 3 minutes.
 * - Instagram, IG User media (developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/media):
 *   caption up to 2200 characters and 30 hashtags; Reels from 3 seconds to 15 minutes; thumb_offset
 *   in milliseconds into the video.
 */

const creator = (rules: Partial<TikTokCreatorRules> = {}): TikTokCreatorRules => ({
  nickname: 'Оксана',
  username: 'oksana',
  privacyLevelOptions: ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'],
  commentDisabled: false,
  duetDisabled: false,
  stitchDisabled: false,
  maxVideoPostDurationSec: 600,
  ...rules,
});
/** What creator_info answers an unaudited client's creator: private posts only. */
const unaudited = creator({ privacyLevelOptions: ['SELF_ONLY'] });
const texts = (title = 'Назва', description = 'Опис', tags: string[] = []) => ({ title, description, tags });
const key = 'video-7-tiktok';

describe('captions with the publish key', () => {
  it('writes tags as hashtags of letters, digits and underscores, Cyrillic included, and drops tags left empty', () => {
    expect(hashtags(['кава', 'new york', 'C++', 'top_10', '!!!'])).toBe('#кава #newyork #C #top_10');
    expect(hashtags([])).toBe('');
  });

  it("leaves the key's line and the blank line before it out of the platform's limit", () => {
    expect(captionRoom(2200, key)).toBe(2200 - key.length - 2);
  });

  it('joins the non-blank parts with a blank line', () => {
    expect(captionText(['Назва', '  ', '', 'Опис'])).toBe('Назва\n\nОпис');
  });

  it('ends with the key on its own line, the text cut to its room so the whole caption fits the limit', () => {
    expect(captionWithMarker(['Назва', 'Опис'], key, 2200)).toBe(`Назва\n\nОпис\n\n${key}`);
    const long = captionWithMarker(['x'.repeat(3000)], key, 2200);
    expect(long).toHaveLength(2200);
    expect(long.endsWith(`\n\n${key}`)).toBe(true);
    expect(captionWithMarker([''], key, 2200)).toBe(key);
  });
});

describe('TikTok', () => {
  it("names TikTok's four privacy levels and gives none by default", () => {
    expect([...tiktokPrivacyLevels].sort()).toEqual(['FOLLOWER_OF_CREATOR', 'MUTUAL_FOLLOW_FRIENDS', 'PUBLIC_TO_EVERYONE', 'SELF_ONLY']);
    expect(tiktokDefaults).not.toHaveProperty('privacyLevel');
  });

  it('offers only the levels every chosen creator is offered, in the form’s order', () => {
    expect(offeredPrivacyLevels([creator()])).toEqual(tiktokPrivacyLevels);
    expect(offeredPrivacyLevels([creator(), unaudited])).toEqual(['SELF_ONLY']);
    expect(offeredPrivacyLevels([creator({ privacyLevelOptions: ['FOLLOWER_OF_CREATOR', 'PUBLIC_TO_EVERYONE'] })])).toEqual([
      'PUBLIC_TO_EVERYONE',
      'FOLLOWER_OF_CREATOR',
    ]);
    expect(offeredPrivacyLevels([creator({ privacyLevelOptions: [] })])).toEqual([]);
  });

  it('gives the shortest of the creators’ longest videos, and none when no creator says', () => {
    expect(longestTikTokVideo([creator({ maxVideoPostDurationSec: 600 }), creator({ maxVideoPostDurationSec: 180 })])).toBe(180);
    expect(longestTikTokVideo([creator({ maxVideoPostDurationSec: 0 }), creator({ maxVideoPostDurationSec: 300 })])).toBe(300);
    expect(longestTikTokVideo([creator({ maxVideoPostDurationSec: 0 })])).toBeNull();
    expect(longestTikTokVideo([])).toBeNull();
  });

  it('greys out an interaction any chosen creator turned off', () => {
    const [comment, duet, stitch] = tiktokInteractions;
    const creators = [creator(), creator({ duetDisabled: true })];
    expect(interactionOffByCreator(creators, comment!)).toBe(false);
    expect(interactionOffByCreator(creators, duet!)).toBe(true);
    expect(interactionOffByCreator([creator({ stitchDisabled: true })], stitch!)).toBe(true);
    expect(interactionOffByCreator([creator({ commentDisabled: true })], comment!)).toBe(true);
    expect(interactionOffByCreator([], comment!)).toBe(false);
  });

  it('leaves every interaction off in the form until the operator turns it on', () => {
    expect(tiktokInteractionsOff).toEqual({ disableComment: true, disableDuet: true, disableStitch: true });
  });

  it('refuses a post with no privacy level, and branded content that is private', () => {
    expect(tiktokChoiceRefusal({})).toEqual({ code: 'tiktokPrivacyRequired' });
    expect(tiktokChoiceRefusal({ brandContentToggle: true })).toEqual({ code: 'tiktokPrivacyRequired' });
    expect(tiktokChoiceRefusal({ privacyLevel: 'SELF_ONLY', brandContentToggle: true })).toEqual({ code: 'brandedPrivate' });
    expect(tiktokChoiceRefusal({ privacyLevel: 'PUBLIC_TO_EVERYONE', brandContentToggle: true })).toBeNull();
    // Promoting one's own business is not branded content: it may be private.
    expect(tiktokChoiceRefusal({ privacyLevel: 'SELF_ONLY', brandOrganicToggle: true })).toBeNull();
  });

  it("refuses a level creator_info does not offer, and a video past the creator's longest", () => {
    expect(tiktokCreatorRefusal('PUBLIC_TO_EVERYONE', { number: 2, durationSeconds: 30 }, unaudited)).toEqual({
      code: 'privacyNotOffered',
      level: 'PUBLIC_TO_EVERYONE',
    });
    expect(tiktokCreatorRefusal('SELF_ONLY', { number: 2, durationSeconds: 30 }, unaudited)).toBeNull();
    expect(tiktokCreatorRefusal('SELF_ONLY', { number: 2, durationSeconds: 600 }, creator())).toBeNull();
    expect(tiktokCreatorRefusal('SELF_ONLY', { number: 2, durationSeconds: 600.04 }, creator())).toEqual({
      code: 'tooLong',
      format: 'TikTok',
      video: 2,
      seconds: 600,
      limit: 600,
    });
    expect(tiktokCreatorRefusal('SELF_ONLY', { number: 2, durationSeconds: 912.36 }, creator())).toEqual({
      code: 'tooLong',
      format: 'TikTok',
      video: 2,
      seconds: 912.4,
      limit: 600,
    });
    // A creator_info with no figure, or a video whose length is unknown, limits nothing.
    expect(tiktokCreatorRefusal('SELF_ONLY', { number: 2, durationSeconds: 5000 }, creator({ maxVideoPostDurationSec: 0 }))).toBeNull();
    expect(tiktokCreatorRefusal('SELF_ONLY', null, creator())).toBeNull();
  });

  it('takes a caption of up to 2200 characters with the key', () => {
    expect(tiktokCaptionLimit).toBe(2200);
    const room = 2200 - key.length - 2;
    // The title, a blank line and '#кава' (five characters).
    expect(tiktokCaptionRefusal(texts('x'.repeat(room), ''), key)).toBeNull();
    expect(tiktokCaptionRefusal(texts('x'.repeat(room - 7), '', ['кава']), key)).toBeNull();
    expect(tiktokCaptionRefusal(texts('x'.repeat(room - 6), '', ['кава']), key)).toEqual({
      code: 'captionTooLong',
      platform: 'tiktok',
      length: room + 1,
      room,
    });
  });

  it("sends an interaction off when the creator turned it off, whatever the post chose, and the post's own choices otherwise", () => {
    const info = tiktokPostInfo(
      { privacyLevel: 'FOLLOWER_OF_CREATOR', disableComment: false, disableDuet: true, brandOrganicToggle: true },
      creator({ commentDisabled: true }),
    );
    expect(info).toEqual({
      privacy_level: 'FOLLOWER_OF_CREATOR',
      disable_comment: true,
      disable_duet: true,
      disable_stitch: false,
      brand_content_toggle: false,
      brand_organic_toggle: true,
    });
    expect(
      tiktokPostInfo({ privacyLevel: 'SELF_ONLY', brandContentToggle: true }, creator({ duetDisabled: true, stitchDisabled: true })),
    ).toMatchObject({
      disable_comment: false,
      disable_duet: true,
      disable_stitch: true,
      brand_content_toggle: true,
      brand_organic_toggle: false,
    });
    expect(tiktokPostInfo({ privacyLevel: 'PUBLIC_TO_EVERYONE' }, creator())).toEqual({
      privacy_level: 'PUBLIC_TO_EVERYONE',
      disable_comment: false,
      disable_duet: false,
      disable_stitch: false,
      brand_content_toggle: false,
      brand_organic_toggle: false,
    });
  });
});

describe('YouTube', () => {
  it('takes a title of 100 characters, a description of 5000, and a Short of 3 minutes', () => {
    expect(youtubeLimits).toMatchObject({ title: 100, description: 5000, shortsSeconds: 180 });
    expect(youtubePostRefusal(texts('x'.repeat(100), 'y'.repeat(5000)), { number: 2, durationSeconds: 180 })).toBeNull();
    expect(youtubePostRefusal(texts('x'.repeat(101)), { number: 2, durationSeconds: 30 })).toEqual({
      code: 'titleTooLong',
      length: 101,
      limit: 100,
    });
    expect(youtubePostRefusal(texts('x', 'y'.repeat(5001)), { number: 2, durationSeconds: 30 })).toEqual({
      code: 'descriptionTooLong',
      bytes: 5001,
      limit: 5000,
    });
    // The description's limit is in bytes: 2500 Cyrillic letters fill it, one more is over.
    expect(youtubePostRefusal(texts('x', 'я'.repeat(2500)), { number: 7, durationSeconds: 30 })).toBeNull();
    expect(youtubePostRefusal(texts('x', 'я'.repeat(2501)), { number: 7, durationSeconds: 30 })).toEqual({
      code: 'descriptionTooLong',
      bytes: 5002,
      limit: 5000,
    });
    expect(youtubePostRefusal(texts(), { number: 2, durationSeconds: 181.26 })).toEqual({
      code: 'tooLong',
      format: 'YouTube Shorts',
      video: 2,
      seconds: 181.3,
      limit: 180,
    });
    expect(youtubePostRefusal(texts(), { number: 2, durationSeconds: null })).toBeNull();
  });

  it("refuses '<' and '>' in the title and the description, as videos.insert does", () => {
    for (const title of ['a < b', 'a > b', '<script>']) {
      expect(youtubePostRefusal(texts(title), { number: 7, durationSeconds: 30 })).toEqual({ code: 'angleBrackets', field: 'title' });
    }
    expect(youtubePostRefusal(texts('x', '1 < 2'), { number: 7, durationSeconds: 30 })).toEqual({
      code: 'angleBrackets',
      field: 'description',
    });
    expect(youtubePostRefusal(texts('x', '≤ ≥ « » ‹ ›'), { number: 7, durationSeconds: 30 })).toBeNull();
    expect(textRefusal('youtube', texts('<b>'))).toEqual({ code: 'angleBrackets', field: 'title' });
    expect(textRefusal('tiktok', texts('<b>'))).toBeNull();
  });

  it('takes only the categories videoCategories.list calls assignable: 999 and the US-only 29 are refused', () => {
    expect(youtubeCategories).toHaveLength(14);
    for (const categoryId of youtubeCategories) {
      expect(youtubeChoiceRefusal({ selfDeclaredMadeForKids: false, categoryId })).toBeNull();
      expect(t.postingRules.categories[categoryId], categoryId).toBeDefined();
    }
    expect(youtubeCategories).toContain(youtubeDefaults.categoryId);
    for (const categoryId of ['999', '29', '18', '0', '']) {
      expect(youtubeChoiceRefusal({ selfDeclaredMadeForKids: false, categoryId })).toEqual({ code: 'categoryNotAssignable', categoryId });
    }
    // A profile's remembered category from before the list counts as a choice too.
    const resolved = resolveChoices(
      'youtube',
      { youtube: { privacyStatus: 'public' } },
      { youtube: { selfDeclaredMadeForKids: false, categoryId: '999' } },
    );
    expect(resolved.refusal).toEqual({ code: 'categoryNotAssignable', categoryId: '999' });
  });

  it('never assumes the made-for-kids declaration, and posts public in People & Blogs where nothing else was chosen', () => {
    expect(youtubeChoiceRefusal({})).toEqual({ code: 'youtubeKidsRequired' });
    expect(youtubeChoiceRefusal({ selfDeclaredMadeForKids: false })).toBeNull();
    expect(youtubeChoiceRefusal({ selfDeclaredMadeForKids: true })).toBeNull();
    expect(youtubeDefaults).toEqual({ privacyStatus: 'public', categoryId: '22' });
  });
});

describe('Instagram', () => {
  const reel = (tags: string[] = [], title = 'Назва') => texts(title, '', tags);
  const igKey = 'video-7-instagram';

  it('takes up to 30 hashtags, counting only the tags that stay hashtags', () => {
    expect(instagramLimits.hashtags).toBe(30);
    const thirty = Array.from({ length: 30 }, (_, index) => `tag${index}`);
    expect(instagramPostRefusal({}, reel([...thirty, '!!!']), { number: 2, durationSeconds: 30, publishKey: igKey })).toBeNull();
    expect(instagramPostRefusal({}, reel([...thirty, 'one_more']), { number: 2, durationSeconds: 30, publishKey: igKey })).toEqual({
      code: 'tooManyHashtags',
      count: 31,
      limit: 30,
    });
  });

  it('counts the hashtags of the whole caption: the title and the description as well as the tags (the adversary sent 42)', () => {
    const twelve = Array.from({ length: 12 }, (_, index) => `#опис${index}`).join(' ');
    const thirty = Array.from({ length: 30 }, (_, index) => `tag${index}`);
    const over = texts('Назва', twelve, thirty);
    expect(instagramPostRefusal({}, over, { number: 7, durationSeconds: 30, publishKey: igKey })).toEqual({
      code: 'tooManyHashtags',
      count: 42,
      limit: 30,
    });
    expect(textRefusal('instagram', over)).toEqual({ code: 'tooManyHashtags', count: 42, limit: 30 });
    expect(textRefusal('instagram', texts('#a #b', '#c', thirty.slice(0, 27)))).toBeNull();
    expect(textRefusal('instagram', texts('#a #b', '#c #d', thirty.slice(0, 27)))).toEqual({
      code: 'tooManyHashtags',
      count: 31,
      limit: 30,
    });
    // A lone '#' or one before a space is no hashtag.
    expect(textRefusal('instagram', texts('# 1 #', '№#', thirty))).toBeNull();
    expect(textRefusal('youtube', over)).toBeNull();
  });

  it('takes a caption of up to 2200 characters with the key', () => {
    const room = 2200 - igKey.length - 2;
    expect(instagramPostRefusal({}, reel([], 'x'.repeat(room)), { number: 2, durationSeconds: 30, publishKey: igKey })).toBeNull();
    expect(instagramPostRefusal({}, reel([], 'x'.repeat(room + 1)), { number: 2, durationSeconds: 30, publishKey: igKey })).toEqual({
      code: 'captionTooLong',
      platform: 'instagram',
      length: room + 1,
      room,
    });
  });

  it('takes Reels from 3 seconds to 15 minutes', () => {
    expect(instagramPostRefusal({}, reel(), { number: 2, durationSeconds: 3, publishKey: igKey })).toBeNull();
    expect(instagramPostRefusal({}, reel(), { number: 2, durationSeconds: 900, publishKey: igKey })).toBeNull();
    expect(instagramPostRefusal({}, reel(), { number: 2, durationSeconds: 900.5, publishKey: igKey })).toEqual({
      code: 'tooLong',
      format: 'Instagram Reels',
      video: 2,
      seconds: 900.5,
      limit: 900,
    });
    expect(instagramPostRefusal({}, reel(), { number: 2, durationSeconds: 2.5, publishKey: igKey })).toEqual({
      code: 'tooShort',
      format: 'Instagram Reels',
      video: 2,
      seconds: 2.5,
      limit: 3,
    });
    expect(instagramPostRefusal({}, reel(), { number: 2, durationSeconds: null, publishKey: igKey })).toBeNull();
  });

  it("refuses a cover frame past the video's end, in milliseconds", () => {
    expect(instagramPostRefusal({ thumbOffset: 5000 }, reel(), { number: 2, durationSeconds: 5, publishKey: igKey })).toBeNull();
    expect(instagramPostRefusal({ thumbOffset: 0 }, reel(), { number: 2, durationSeconds: 5, publishKey: igKey })).toBeNull();
    expect(instagramPostRefusal({ thumbOffset: 5001 }, reel(), { number: 2, durationSeconds: 5, publishKey: igKey })).toEqual({
      code: 'thumbOffsetBeyond',
      video: 2,
    });
    expect(instagramPostRefusal({ thumbOffset: 5001 }, reel(), { number: 2, durationSeconds: null, publishKey: igKey })).toBeNull();
  });

  it('shares a Reel to the feed where nothing else was chosen', () => {
    expect(instagramDefaults).toEqual({ shareToFeed: true });
  });
});

describe("a post's choices", () => {
  it("takes what the publish sent over what the profile remembers over the platform's defaults, field by field", () => {
    const saved = {
      tiktok: { privacyLevel: 'SELF_ONLY' as const, disableDuet: true },
      youtube: { selfDeclaredMadeForKids: false, categoryId: '24' },
    };
    expect(resolveChoices('tiktok', { tiktok: { disableComment: true, disableDuet: undefined } }, saved)).toEqual({
      options: { ...tiktokDefaults, privacyLevel: 'SELF_ONLY', disableComment: true, disableDuet: true },
      refusal: null,
    });
    expect(resolveChoices('youtube', { youtube: { privacyStatus: 'unlisted' } }, saved)).toEqual({
      options: { privacyStatus: 'unlisted', categoryId: '24', selfDeclaredMadeForKids: false },
      refusal: null,
    });
    expect(resolveChoices('instagram', undefined, {})).toEqual({ options: { shareToFeed: true }, refusal: null });
    // SPEC's publish without `options`: the remembered choices alone.
    expect(resolveChoices('tiktok', undefined, saved).options).toEqual({ ...tiktokDefaults, privacyLevel: 'SELF_ONLY', disableDuet: true });
    expect(resolveChoices('youtube', undefined, saved).options).toEqual({
      privacyStatus: 'public',
      categoryId: '24',
      selfDeclaredMadeForKids: false,
    });
    expect(resolveChoices('instagram', { instagram: { thumbOffset: 1200 } }, { instagram: { shareToFeed: false } })).toEqual({
      options: { shareToFeed: false, thumbOffset: 1200 },
      refusal: null,
    });
  });

  it('refuses a required choice nobody made, on the publish or in the profile', () => {
    expect(resolveChoices('tiktok', { tiktok: { disableComment: true } }, {})).toEqual({
      options: null,
      refusal: { code: 'tiktokPrivacyRequired' },
    });
    expect(resolveChoices('tiktok', { tiktok: { brandContentToggle: true } }, { tiktok: { privacyLevel: 'SELF_ONLY' } }).refusal).toEqual({
      code: 'brandedPrivate',
    });
    expect(resolveChoices('youtube', {}, {})).toEqual({ options: null, refusal: { code: 'youtubeKidsRequired' } });
  });

  it("checks each platform's post by that platform's rules, and TikTok's creator only once creator_info was read", () => {
    const tiktokOptions = { privacyLevel: 'PUBLIC_TO_EVERYONE' as const };
    const video = { number: 2, durationSeconds: 700, publishKey: key };
    expect(postRefusal('tiktok', tiktokOptions, video, texts(), null)).toBeNull();
    expect(postRefusal('tiktok', tiktokOptions, video, texts(), unaudited)).toEqual({
      code: 'privacyNotOffered',
      level: 'PUBLIC_TO_EVERYONE',
    });
    expect(postRefusal('tiktok', { privacyLevel: 'SELF_ONLY' }, video, texts(), unaudited)).toMatchObject({
      code: 'tooLong',
      format: 'TikTok',
    });
    expect(postRefusal('tiktok', tiktokOptions, video, texts('x'.repeat(2200)), null)).toMatchObject({ code: 'captionTooLong' });
    expect(postRefusal('youtube', youtubeDefaults, video, texts(), null)).toMatchObject({ code: 'tooLong', format: 'YouTube Shorts' });
    expect(
      postRefusal('instagram', instagramDefaults, { number: 2, durationSeconds: 2, publishKey: 'video-7-instagram' }, texts(), null),
    ).toMatchObject({
      code: 'tooShort',
    });
    expect(
      postRefusal('instagram', instagramDefaults, { number: 2, durationSeconds: 20, publishKey: 'video-7-instagram' }, texts(), null),
    ).toBeNull();
  });
});

describe("a refusal in the operator's words", () => {
  const rules = t.postingRules;
  const cases: [Refusal, string][] = [
    [{ code: 'tiktokPrivacyRequired' }, rules.tiktokPrivacyRequired('Профіль 1')],
    [{ code: 'privacyNotOffered', level: 'SELF_ONLY' }, rules.privacyNotOffered('Профіль 1', rules.privacyLevels.SELF_ONLY!)],
    [{ code: 'privacyNotOffered', level: 'SOMETHING_NEW' }, rules.privacyNotOffered('Профіль 1', 'SOMETHING_NEW')],
    [{ code: 'brandedPrivate' }, rules.brandedPrivate],
    [{ code: 'youtubeKidsRequired' }, rules.youtubeKidsRequired('Профіль 1')],
    [{ code: 'captionTooLong', platform: 'instagram', length: 2300, room: 2181 }, rules.captionTooLong('Instagram', 2300, 2181)],
    [{ code: 'captionTooLong', platform: 'tiktok', length: 2300, room: 2184 }, rules.captionTooLong('TikTok', 2300, 2184)],
    [{ code: 'titleTooLong', length: 120, limit: 100 }, rules.titleTooLong(120, 100)],
    [{ code: 'descriptionTooLong', bytes: 6000, limit: 5000 }, rules.descriptionTooLong(6000, 5000)],
    [{ code: 'angleBrackets', field: 'title' }, rules.angleBrackets.title],
    [{ code: 'angleBrackets', field: 'description' }, rules.angleBrackets.description],
    [{ code: 'categoryNotAssignable', categoryId: '999' }, rules.categoryNotAssignable('999')],
    [{ code: 'tooManyHashtags', count: 31, limit: 30 }, rules.tooManyHashtags(31, 30)],
    [{ code: 'tooLong', format: 'YouTube Shorts', video: 2, seconds: 181.3, limit: 180 }, rules.tooLong('YouTube Shorts', 2, 181.3, 180)],
    [{ code: 'tooShort', format: 'Instagram Reels', video: 2, seconds: 2.5, limit: 3 }, rules.tooShort('Instagram Reels', 2, 2.5, 3)],
    [{ code: 'thumbOffsetBeyond', video: 2 }, rules.thumbOffsetBeyond(2)],
  ];

  it.each(cases)('words %j with the profile or the video it is about', (refusal, words) => {
    expect(refusalText(refusal, 'Профіль 1')).toBe(words);
  });
});

describe('the publish form’s check of the choices (issue 40.4)', () => {
  const rules = t.postingRules;
  const olena = { title: '#1 Олена', platforms: ['youtube', 'tiktok'] as const, saved: {} };
  const boris = { title: '#2 Борис', platforms: ['youtube'] as const, saved: { youtube: { selfDeclaredMadeForKids: false } } };

  it('names each refused choice once, on its field, for the first chosen profile that posts there', () => {
    expect([...choiceProblems([olena, boris], ['youtube', 'tiktok'], {})]).toEqual([
      ['options.youtube.selfDeclaredMadeForKids', rules.youtubeKidsRequired('#1 Олена')],
      ['options.tiktok.privacyLevel', rules.tiktokPrivacyRequired('#1 Олена')],
    ]);
    // Boris remembers his declaration and has no TikTok: nothing to refuse for him.
    expect([...choiceProblems([boris], ['youtube', 'tiktok'], {})]).toEqual([]);
    // A platform not ticked is not checked.
    expect([...choiceProblems([olena], ['youtube'], { youtube: { selfDeclaredMadeForKids: true } })]).toEqual([]);
    expect([...choiceProblems([olena], ['youtube'], { youtube: { selfDeclaredMadeForKids: true, categoryId: '999' } })]).toEqual([
      ['options.youtube.categoryId', rules.categoryNotAssignable('999')],
    ]);
  });

  it('marks a field only for a choice: a text or a video refusal has none', () => {
    const fields: [Refusal, string | null][] = [
      [{ code: 'tiktokPrivacyRequired' }, 'options.tiktok.privacyLevel'],
      [{ code: 'privacyNotOffered', level: 'SELF_ONLY' }, 'options.tiktok.privacyLevel'],
      [{ code: 'brandedPrivate' }, 'options.tiktok.privacyLevel'],
      [{ code: 'youtubeKidsRequired' }, 'options.youtube.selfDeclaredMadeForKids'],
      [{ code: 'categoryNotAssignable', categoryId: '999' }, 'options.youtube.categoryId'],
      [{ code: 'titleTooLong', length: 120, limit: 100 }, null],
      [{ code: 'thumbOffsetBeyond', video: 2 }, null],
    ];
    expect(fields.map(([refusal]) => refusalField(refusal))).toEqual(fields.map(([, field]) => field));
  });
});

/**
 * - Facebook, Reels Publishing API (developers.facebook.com/docs/video-api/guides/reels-publishing,
 *   "Video Specifications"): 3 to 90 seconds, 24 to 60 frames a second.
 */
describe('Facebook', () => {
  const key = { publishKey: 'video-9-facebook' };
  const reel = (durationSeconds: number | null, fps: number | null) => ({ number: 4, durationSeconds, fps, ...key });
  const texts = { title: 'Ранок', description: '', tags: ['reels'] };

  it('takes a Reel of 3 to 90 s at 24 to 60 frames a second, and one whose figures are unknown', () => {
    for (const [seconds, fps] of [
      [3, 24],
      [90, 60],
      [30, 30],
      [null, null],
    ] as const) {
      expect(facebookPostRefusal(texts, reel(seconds, fps))).toBeNull();
    }
  });

  it('refuses a Reel under 3 s or over 90 s, and a frame rate out of 24 to 60, in the words the form and the server show', () => {
    expect(facebookPostRefusal(texts, reel(2.96, 30))).toEqual({
      code: 'tooShort',
      format: 'Facebook Reels',
      video: 4,
      seconds: 3,
      limit: 3,
    });
    expect(facebookPostRefusal(texts, reel(90.04, 30))).toEqual({
      code: 'tooLong',
      format: 'Facebook Reels',
      video: 4,
      seconds: 90,
      limit: 90,
    });
    expect(facebookPostRefusal(texts, reel(10, 23.9))).toEqual({
      code: 'frameRate',
      format: 'Facebook Reels',
      video: 4,
      fps: 23.9,
      min: 24,
      max: 60,
    });
    expect(facebookPostRefusal(texts, reel(10, 60.1))).toMatchObject({ code: 'frameRate', fps: 60.1 });
    expect(refusalText(facebookPostRefusal(texts, reel(2, 30))!, '')).toBe('Facebook Reels: відео 4 триває 2 с, а потрібно щонайменше 3 с');
  });

  it('takes a 9:16 frame of at least 540 × 960 and refuses a 16:9 or a smaller one, in Ukrainian', () => {
    const framed = (width: number, height: number) => ({ ...reel(10, 30), frame: { width, height } });
    for (const [width, height] of [
      [1080, 1920],
      [720, 1280],
      [540, 960],
    ]) {
      expect(facebookPostRefusal(texts, framed(width!, height!))).toBeNull();
    }
    expect(facebookPostRefusal(texts, framed(1920, 1080))).toEqual({
      code: 'frameShape',
      format: 'Facebook Reels',
      video: 4,
      width: 1920,
      height: 1080,
      shape: '9:16',
      minWidth: 540,
      minHeight: 960,
    });
    expect(facebookPostRefusal(texts, framed(1080, 1080))).toMatchObject({ code: 'frameShape' });
    expect(facebookPostRefusal(texts, framed(360, 640))).toMatchObject({ code: 'frameShape', width: 360 });
    expect(refusalText(facebookPostRefusal(texts, framed(1920, 1080))!, '')).toBe(
      'Facebook Reels: відео 4 має кадр 1920×1080, а приймається кадр 9:16 щонайменше 540×960',
    );
  });

  it('refuses a description over its room once the key has its line', () => {
    const room = facebookLimits.caption - key.publishKey.length - 2;
    expect(facebookPostRefusal({ title: 'я'.repeat(room), description: '', tags: [] }, reel(10, 30))).toBeNull();
    expect(facebookPostRefusal({ title: 'я'.repeat(room + 1), description: '', tags: [] }, reel(10, 30))).toEqual({
      code: 'captionTooLong',
      platform: 'facebook',
      length: room + 1,
      room,
    });
  });
});
