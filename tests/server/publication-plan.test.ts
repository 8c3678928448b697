import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PostOptions } from '../../src/lib/contract';
import type { Platform } from '../../src/lib/platforms';
import { t } from '../../server/messages';
import { HttpError } from '../../server/http-error';
import {
  planMove,
  planPublication,
  type Move,
  type PlanProfile,
  type PublicationRequest,
  type ScheduledPost,
} from '../../server/services/publishing/publication-plan';

// The publish form of SPEC (section 3, "Publish form", and the payload of section 4): profiles or
// groups chosen, each video with an optional own profile and date, the three platform flags, one
// optional date; no date means at once. Nothing here reads a database or a clock.

const now = Date.UTC(2030, 0, 15, 10, 0);
const at = (iso: string) => new Date(iso);

const profile = (
  id: number,
  active: Partial<Pick<PlanProfile, 'isActiveYouTube' | 'isActiveTikTok' | 'isActiveInstagram'>> = {},
): PlanProfile => ({
  id,
  title: `Профіль ${id}`,
  isActiveYouTube: true,
  isActiveTikTok: true,
  isActiveInstagram: true,
  isActiveFacebook: false,
  ...active,
});

/** Choices every platform requires, as a profile may remember them. */
const complete: PostOptions = {
  tiktok: { privacyLevel: 'FOLLOWER_OF_CREATOR' },
  youtube: { selfDeclaredMadeForKids: false },
};

const request = (fields: Partial<PublicationRequest> = {}): PublicationRequest => ({
  accounts: [{ id: 1 }],
  video: [{ id: 101 }],
  inYouTube: true,
  inTikTok: true,
  inInstagram: true,
  date: null,
  ...fields,
});

const profilesOf = (...list: PlanProfile[]) => new Map(list.map((item) => [item.id, item]));
/** The request's videos numbered by their place in it, as the route reads their positions. */
const numbersOf = (form: PublicationRequest) => new Map(form.video.map((item, index) => [item.id, index + 1]));
const savedFor = (ids: number[], options: PostOptions = complete) => new Map(ids.map((id) => [id, options]));

const plan = (
  fields: Partial<PublicationRequest>,
  profiles = profilesOf(profile(1), profile(2), profile(3)),
  saved = savedFor([1, 2, 3]),
) => {
  const form = request(fields);
  return planPublication(form, profiles, saved, now, numbersOf(form));
};

/** The refusal a call ends in: its status and message. */
function refusal(call: () => unknown): { status: number; message: string } {
  try {
    call();
  } catch (error) {
    if (error instanceof HttpError) return { status: error.statusCode, message: error.message };
    throw error;
  }
  throw new Error('not refused');
}

describe('planPublication', () => {
  it('gives the videos on "Будь-який" the chosen profiles by position, starting over, and keeps a video\'s own profile', () => {
    const planned = plan({
      accounts: [{ id: 1 }, { id: 2 }],
      video: [{ id: 101 }, { id: 102, account: { id: 3 } }, { id: 103 }, { id: 104, account: null }],
    });
    expect(planned.map((item) => [item.videoId, item.accountId, item.title])).toEqual([
      [101, 1, 'Профіль 1'],
      [102, 3, 'Профіль 3'],
      [103, 1, 'Профіль 1'],
      [104, 2, 'Профіль 2'],
    ]);
  });

  it("publishes at once when no date is given, at the form date otherwise, and at a video's own date before the form's", () => {
    expect(plan({ video: [{ id: 101 }] })[0]!.scheduledAt).toEqual(new Date(now));
    expect(plan({ video: [{ id: 101, date: '  ' }], date: undefined })[0]!.scheduledAt).toEqual(new Date(now));
    // Dates without an offset are Kyiv wall time (UTC+3 in summer, UTC+2 in winter).
    const dated = plan({ date: '2030-06-01T12:00', video: [{ id: 101 }, { id: 102, date: '2030-02-01T08:30' }, { id: 103, date: null }] });
    expect(dated.map((item) => item.scheduledAt)).toEqual([
      at('2030-06-01T09:00:00Z'),
      at('2030-02-01T06:30:00Z'),
      at('2030-06-01T09:00:00Z'),
    ]);
    expect(plan({ video: [{ id: 101, date: '2030-03-01T10:00:00Z' }] })[0]!.scheduledAt).toEqual(at('2030-03-01T10:00:00Z'));
  });

  it("refuses a date that has passed or cannot be read, the form's or a video's; the minute being typed still counts as now", () => {
    expect(refusal(() => plan({ date: '2030-01-15T09:58:00Z', video: [{ id: 101 }] }))).toEqual({
      status: 400,
      message: t.publish.pastDate,
    });
    expect(refusal(() => plan({ video: [{ id: 101 }, { id: 102, date: '2029-12-31T23:00:00Z' }] }))).toEqual({
      status: 400,
      message: t.publish.pastDate,
    });
    expect(refusal(() => plan({ date: 'завтра' })).message).toBe(`${t.publish.badDate}: завтра`);
    const typed = new Date(now - 30_000).toISOString();
    expect(plan({ date: typed })[0]!.scheduledAt).toEqual(new Date(typed));
  });

  it("sends each video to the ticked platforms its profile has switched on, in the form's order", () => {
    const profiles = profilesOf(
      profile(1),
      profile(2, { isActiveYouTube: false }),
      profile(3, { isActiveTikTok: false, isActiveInstagram: false }),
    );
    const planned = plan(
      { accounts: [{ id: 1 }, { id: 2 }, { id: 3 }], video: [{ id: 101 }, { id: 102 }, { id: 103 }], inTikTok: false },
      profiles,
    );
    expect(planned.map((item) => item.platforms)).toEqual([['youtube', 'instagram'], ['instagram'], ['youtube']]);
    expect(planned.map((item) => [...item.options.keys()])).toEqual([['youtube', 'instagram'], ['instagram'], ['youtube']]);
    expect(plan({ inYouTube: false, inInstagram: false })[0]!.platforms).toEqual(['tiktok']);
  });

  it('says on a video the ticked platforms its profile lacks, and nothing when it has them all', () => {
    const profiles = profilesOf(profile(1), profile(2, { isActiveTikTok: false, isActiveInstagram: false }));
    const planned = plan({ accounts: [{ id: 1 }, { id: 2 }], video: [{ id: 101 }, { id: 102 }] }, profiles);
    expect(planned.map((item) => item.note)).toEqual([null, t.postTruth.platformsMissing('Профіль 2', ['TikTok', 'Instagram'])]);
    // A platform nobody ticked is not missing.
    expect(plan({ accounts: [{ id: 2 }], inTikTok: false, inInstagram: false }, profiles)[0]!.note).toBeNull();
  });

  it('refuses a publish with no platform ticked, and a video whose profile has none of the ticked ones, naming it', () => {
    expect(refusal(() => plan({ inYouTube: false, inTikTok: false, inInstagram: false }))).toEqual({
      status: 400,
      message: t.postTruth.noPlatformTicked,
    });
    const profiles = profilesOf(profile(1), profile(2, { isActiveYouTube: false, isActiveInstagram: false }));
    expect(refusal(() => plan({ accounts: [{ id: 1 }, { id: 2 }], video: [{ id: 101 }, { id: 102 }], inTikTok: false }, profiles))).toEqual(
      {
        status: 400,
        // Named by its place in the request, as the form names it, not by its id.
        message: t.postTruth.noPlatformFor('Відео 2', 'Профіль 2', 'YouTube, Instagram'),
      },
    );
  });

  it("gives each post the form's choices over the ones its profile remembers, and refuses a required choice nobody made", () => {
    const saved = new Map<number, PostOptions>([
      [1, { tiktok: { privacyLevel: 'SELF_ONLY', disableDuet: true }, youtube: { selfDeclaredMadeForKids: true, categoryId: '10' } }],
      [2, { youtube: { selfDeclaredMadeForKids: false } }],
    ]);
    const options: PostOptions = { tiktok: { privacyLevel: 'PUBLIC_TO_EVERYONE' }, instagram: { shareToFeed: false } };
    const [first] = plan({ options }, undefined, saved);
    expect(first!.options.get('tiktok')).toMatchObject({ privacyLevel: 'PUBLIC_TO_EVERYONE', disableDuet: true });
    expect(first!.options.get('youtube')).toMatchObject({ selfDeclaredMadeForKids: true, categoryId: '10' });
    expect(first!.options.get('instagram')).toEqual({ shareToFeed: false });
    expect(refusal(() => plan({ accounts: [{ id: 2 }] }, undefined, saved))).toEqual({
      status: 400,
      message: t.postingRules.tiktokPrivacyRequired('Профіль 2'),
    });
    expect(refusal(() => plan({ accounts: [{ id: 3 }], inTikTok: false }, undefined, saved))).toEqual({
      status: 400,
      message: t.postingRules.youtubeKidsRequired('Профіль 3'),
    });
  });

  it('plans one entry per video, in order, each through its profile by position and on every ticked platform it has', () => {
    const flags = fc.record({ inYouTube: fc.boolean(), inTikTok: fc.boolean(), inInstagram: fc.boolean() });
    const actives = fc.record({ isActiveYouTube: fc.boolean(), isActiveTikTok: fc.boolean(), isActiveInstagram: fc.boolean() });
    fc.assert(
      fc.property(fc.array(actives, { minLength: 1, maxLength: 4 }), fc.integer({ min: 1, max: 9 }), flags, (active, videos, ticked) => {
        const profiles = active.map((switches, index) => profile(index + 1, switches));
        const ids = profiles.map((item) => ({ id: item.id }));
        const form = request({ ...ticked, accounts: ids, video: Array.from({ length: videos }, (_, index) => ({ id: 100 + index })) });
        const tickedNames = (['youtube', 'tiktok', 'instagram'] as Platform[]).filter(
          (_, index) => [ticked.inYouTube, ticked.inTikTok, ticked.inInstagram][index],
        );
        let planned;
        try {
          planned = planPublication(form, profilesOf(...profiles), savedFor(ids.map((item) => item.id)), now, numbersOf(form));
        } catch (error) {
          // Refused only when nothing is ticked or some video's profile has none of the ticked platforms.
          const own = Array.from({ length: videos }, (_, index) => profiles[index % profiles.length]!);
          const has = (item: PlanProfile) => [item.isActiveYouTube, item.isActiveTikTok, item.isActiveInstagram];
          const unreachable = own.some((item) => tickedNames.every((name) => !has(item)[['youtube', 'tiktok', 'instagram'].indexOf(name)]));
          expect(error).toBeInstanceOf(HttpError);
          expect(tickedNames.length === 0 || unreachable).toBe(true);
          return;
        }
        expect(planned.map((item) => item.videoId)).toEqual(form.video.map((item) => item.id));
        planned.forEach((item, index) => {
          const own = profiles[index % profiles.length]!;
          expect(item.accountId).toBe(own.id);
          expect(item.platforms.length).toBeGreaterThan(0);
          expect(item.platforms.every((platform) => tickedNames.includes(platform))).toBe(true);
          expect(item.note === null).toBe(item.platforms.length === tickedNames.length);
          expect(item.scheduledAt).toEqual(new Date(now));
        });
      }),
    );
  });
});

describe('planMove', () => {
  const kept = { privacyLevel: 'SELF_ONLY', disableComment: true } as const;
  const scheduled: ScheduledPost[] = [
    {
      platform: 'youtube',
      scheduledAt: at('2030-02-01T10:00:00Z'),
      options: { privacyStatus: 'unlisted', categoryId: '22', selfDeclaredMadeForKids: false },
    },
    { platform: 'tiktok', scheduledAt: at('2030-02-01T10:00:00Z'), options: { ...kept, disableDuet: false, disableStitch: false } },
  ];
  const move = (fields: Partial<Move>): Move => ({
    videoId: 101,
    date: null,
    saved: {},
    flags: { inYouTube: true, inTikTok: true, inInstagram: false },
    accountId: 1,
    posts: scheduled,
    ...fields,
  });

  it('moves to a new date keeping the profile, the platforms, the choices and what the video says', () => {
    const moved = planMove(move({ date: at('2030-03-01T08:00:00Z') }));
    expect(moved.scheduledAt).toEqual(at('2030-03-01T08:00:00Z'));
    expect(moved.accountId).toBe(1);
    expect([...moved.options]).toEqual(scheduled.map((post) => [post.platform, post.options]));
    expect(moved.note).toBeUndefined();
    // A post queued before posts kept their choices takes the platform's defaults.
    const older = planMove(
      move({
        date: at('2030-03-01T08:00:00Z'),
        posts: [{ platform: 'instagram', scheduledAt: at('2030-02-01T10:00:00Z'), options: null }],
      }),
    );
    expect([...older.options]).toEqual([['instagram', { shareToFeed: true }]]);
  });

  it("moves to a new profile keeping the date, on the set's ticked platforms that profile has, saying which it lacks", () => {
    const moved = planMove(move({ profile: profile(2, { isActiveTikTok: false }), saved: complete }));
    expect(moved.scheduledAt).toEqual(at('2030-02-01T10:00:00Z'));
    expect(moved.accountId).toBe(2);
    expect([...moved.options.keys()]).toEqual(['youtube']);
    expect(moved.options.get('youtube')).toEqual(scheduled[0]!.options);
    expect(moved.note).toBe('Не публікується в TikTok: профіль Профіль 2 не має цієї платформи');
    expect(planMove(move({ profile: profile(2), saved: complete })).note).toBeNull();
  });

  it("gives a platform the video did not have the new profile's remembered choices", () => {
    const saved: PostOptions = { instagram: { shareToFeed: false }, youtube: { selfDeclaredMadeForKids: true } };
    const moved = planMove(move({ profile: profile(3), saved, flags: { inYouTube: true, inTikTok: true, inInstagram: true } }));
    expect([...moved.options.keys()]).toEqual(['youtube', 'tiktok', 'instagram']);
    expect(moved.options.get('tiktok')).toEqual(scheduled[1]!.options);
    expect(moved.options.get('instagram')).toEqual({ shareToFeed: false });
  });

  it("refuses a profile with none of the set's ticked platforms, and a new platform missing a required choice, naming the profile", () => {
    expect(refusal(() => planMove(move({ profile: profile(4, { isActiveYouTube: false, isActiveTikTok: false }) })))).toEqual({
      status: 400,
      // Named by its id, as the published set's ID column shows it.
      message: t.postTruth.noPlatformFor('Відео #101', 'Профіль 4', 'YouTube, TikTok'),
    });
    const onlyYouTube = [scheduled[0]!];
    expect(refusal(() => planMove(move({ posts: onlyYouTube, profile: profile(5), saved: { youtube: {} } })))).toEqual({
      status: 400,
      message: t.postingRules.tiktokPrivacyRequired('Профіль 5'),
    });
  });
});
