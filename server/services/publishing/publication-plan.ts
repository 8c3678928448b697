import type { PostOptions } from '../../../src/lib/contract';
import { assignAccounts, type TickedPlatforms } from '../../../src/lib/assignment';
import { platforms, type PlatformFieldName } from '../../../src/lib/platforms';
import { t } from '../../messages';
import { HttpError } from '../../http-error';
import type { Platform } from '../../platforms/types';
import { resolveOptions, type ResolvedOptions } from './posting-rules';
import { futurePublishDate } from './publish-date';

/**
 * Which posts a publication makes, and where a moved video's posts go: which video goes through
 * which profile, to which platforms, when, with which choices, and what it says about the
 * platforms it misses. Pure: the caller reads the profiles and the posts, gives the time, and
 * writes the plan (services/publishing/post-lifecycle.ts).
 */

/** The platforms a publish ticked (`inYouTube`…); one absent is off, as SPEC's payloads leave a platform added since. */
export type PlatformFlags = TickedPlatforms;

/** The platforms a profile has switched on (`isActiveYouTube`…). */
export type ActivePlatforms = Record<PlatformFieldName<'switchedOn'>, boolean>;

/** Where a video goes: the platforms the form checked that its profile has switched on, in the registry's order. */
export function platformsOf(flags: PlatformFlags, account: ActivePlatforms): Platform[] {
  return platforms
    .filter((platform) => flags[platform.fields.ticked] === true && account[platform.fields.switchedOn])
    .map((platform) => platform.id);
}

/** A profile as planning needs it: the platforms it has switched on, and the title messages name it by. */
export interface PlanProfile extends ActivePlatforms {
  id: number;
  title: string;
}

/** What a publish asks for (POST /api/upload-video/{idUpload}), dates still as the form sent them. */
export interface PublicationRequest extends PlatformFlags {
  accounts: { id: number }[];
  video: { id: number; account?: { id: number } | null; date?: string | null }[];
  date?: string | null;
  options?: PostOptions;
}

export interface PlannedVideo {
  videoId: number;
  accountId: number;
  /** The profile's title, for the messages of the checks made on the plan. */
  title: string;
  scheduledAt: Date;
  platforms: Platform[];
  /** The post's own choices per platform: the form's over the profile's remembered ones. */
  options: Map<Platform, ResolvedOptions>;
  /** The ticked platforms the profile lacks, said on the video; null when it has them all. */
  note: string | null;
}

const everyPlatform = Object.fromEntries(platforms.map((platform) => [platform.fields.switchedOn, true])) as ActivePlatforms;
const platformNames = (ids: Platform[]) => ids.map((platform) => t.platform.names[platform]).join(', ');

/**
 * A video whose profile has none of the ticked platforms would get no post at all: refused,
 * naming it (`video`, as its screen names it). One missing only some of them goes out where it
 * can, and says where it does not.
 */
function platformsFor(flags: PlatformFlags, profile: PlanProfile, video: string): { platforms: Platform[]; note: string | null } {
  const ticked = platformsOf(flags, everyPlatform);
  const platforms = platformsOf(flags, profile);
  if (platforms.length === 0) throw new HttpError(400, t.postTruth.noPlatformFor(video, profile.title, platformNames(ticked)));
  const missing = ticked.filter((platform) => !platforms.includes(platform));
  return {
    platforms,
    note:
      missing.length > 0
        ? t.postTruth.platformsMissing(
            profile.title,
            missing.map((platform) => t.platform.names[platform]),
          )
        : null,
  };
}

/**
 * The posts of a publication, one entry per video of the request: its own profile, else the
 * chosen ones in turn (assignAccounts); its own date, else the form's, else now. `profiles` holds
 * every profile the request names, `saved` their remembered choices, and `numbers` each video's
 * place in its request, which the form names it by. Refuses (400) a past or unreadable date, a
 * publish with no platform ticked, a video that would get no post, and a post missing a choice
 * its platform requires.
 */
export function planPublication(
  request: PublicationRequest,
  profiles: Map<number, PlanProfile>,
  saved: Map<number, PostOptions>,
  now: number,
  numbers: Map<number, number>,
): PlannedVideo[] {
  const formDate = futurePublishDate(request.date, now);
  if (platformsOf(request, everyPlatform).length === 0) throw new HttpError(400, t.postTruth.noPlatformTicked);
  const assigned = assignAccounts(
    request.video.map((item) => item.account?.id ?? null),
    request.accounts.map((account) => account.id),
  );
  return request.video.map((item, index) => {
    const profile = profiles.get(assigned[index]!)!;
    const { platforms, note } = platformsFor(request, profile, t.publish.video(numbers.get(item.id)!));
    return {
      videoId: item.id,
      accountId: profile.id,
      title: profile.title,
      scheduledAt: futurePublishDate(item.date, now) ?? formDate ?? new Date(now),
      platforms,
      options: new Map(
        platforms.map((platform) => [platform, resolveOptions(platform, request.options, saved.get(profile.id) ?? {}, profile.title)]),
      ),
      note,
    };
  });
}

/** A post of a video that still waits unstarted, as a move finds it. */
export interface ScheduledPost {
  platform: Platform;
  scheduledAt: Date;
  options: ResolvedOptions | null;
}

export interface Move {
  videoId: number;
  /** The new date; null keeps the posts' own. */
  date: Date | null;
  /** The new profile, with its remembered choices; absent keeps the video's. */
  profile?: PlanProfile;
  saved: PostOptions;
  /** The platforms the set ticked when it was published. */
  flags: PlatformFlags;
  /** The profile the video goes through now. */
  accountId: number | null;
  /** The video's scheduled posts, at least one. */
  posts: ScheduledPost[];
}

export interface PlannedMove {
  accountId: number | null;
  scheduledAt: Date;
  /** The posts the video gets in place of its scheduled ones, with their choices. */
  options: Map<Platform, ResolvedOptions>;
  /** What the video says of the platforms the new profile lacks; undefined when the profile stays, as a date alone changes none. */
  note?: string | null;
}

/**
 * Where a scheduled video's posts go when it is moved to another date and/or profile. A new
 * profile gets the set's ticked platforms it has (none: 400, like the publish form); a moved post
 * keeps the choices made for it, and a platform it did not have takes the new profile's remembered ones.
 */
export function planMove({ videoId, date, profile, saved, flags, accountId, posts }: Move): PlannedMove {
  const moved = profile
    ? platformsFor(flags, profile, t.postTruth.setVideo(videoId))
    : { platforms: posts.map((post) => post.platform), note: undefined };
  const kept = new Map(posts.map((post) => [post.platform, post.options]));
  const optionsOf = (platform: Platform) => kept.get(platform) ?? resolveOptions(platform, undefined, saved, profile?.title ?? '');
  return {
    accountId: profile?.id ?? accountId,
    scheduledAt: date ?? posts[0]!.scheduledAt,
    options: new Map(moved.platforms.map((platform) => [platform, optionsOf(platform)])),
    note: moved.note,
  };
}
