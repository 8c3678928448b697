import type { PlatformName, SelectOption } from './contract';
import * as t from './i18n';
import { platformIds, platformOf, platforms, type PlatformFieldName } from './platforms';

/**
 * The one rule of who publishes what, run by the server on publish and by the form for its
 * preview: a video's own profile when the operator picked one ('Будь-який' is none), else the
 * chosen profiles in turn by the video's position, starting over when the videos outnumber them.
 */
export function assignAccounts(videoAccounts: (number | null)[], chosen: number[]): (number | null)[] {
  return videoAccounts.map((own, position) => own ?? (chosen.length > 0 ? chosen[position % chosen.length]! : null));
}

export interface AssignedVideo {
  videoId: number;
  /** The profile the video will be published through; null while no profile is chosen. */
  profile: SelectOption | null;
  /** True when the rule picked it ('Будь-який'), false when the operator did. */
  byRule: boolean;
}

export interface AssignmentPreview {
  videos: AssignedVideo[];
  /** Chosen profiles no video goes to: the profiles outnumber the videos. */
  idle: SelectOption[];
  /** Chosen profiles that get more than one video: the videos outnumber the profiles. */
  shared: SelectOption[];
}

/** What the publish form shows of the rule for its current videos and chosen profiles. */
export function assignmentPreview(videos: { id: number; account?: SelectOption | null }[], chosen: SelectOption[]): AssignmentPreview {
  const assigned = assignAccounts(
    videos.map((video) => video.account?.id ?? null),
    chosen.map((profile) => profile.id),
  );
  const known = new Map(
    [...chosen, ...videos.flatMap((video) => (video.account ? [video.account] : []))].map((profile) => [profile.id, profile]),
  );
  const counts = new Map<number, number>();
  for (const id of assigned) if (id !== null) counts.set(id, (counts.get(id) ?? 0) + 1);
  return {
    videos: videos.map((video, position) => ({
      videoId: video.id,
      profile: assigned[position] === null ? null : known.get(assigned[position]!)!,
      byRule: !video.account,
    })),
    idle: chosen.filter((profile) => !counts.has(profile.id)),
    shared: chosen.filter((profile) => (counts.get(profile.id) ?? 0) > 1),
  };
}

/** Each platform's tick (`inYouTube`…); one absent is off, as for a platform SPEC's payloads predate. */
export type TickedPlatforms = Partial<Record<PlatformFieldName<'ticked'>, boolean>>;

/** Each platform's tick of a form or a row (`inYouTube`…), off where absent, as a payload sends them. */
export function ticksOf(values: TickedPlatforms): Record<PlatformFieldName<'ticked'>, boolean> {
  return Object.fromEntries(platforms.map((platform) => [platform.fields.ticked, values[platform.fields.ticked] === true])) as Record<
    PlatformFieldName<'ticked'>,
    boolean
  >;
}

/** Every platform ticked. */
export const everyPlatformTicked = Object.fromEntries(platforms.map((platform) => [platform.fields.ticked, true])) as Record<
  PlatformFieldName<'ticked'>,
  boolean
>;

/** The ticked platforms, in the order the form lists them. */
export function tickedPlatforms(flags: TickedPlatforms): PlatformName[] {
  return platformIds.filter((platform) => flags[platformOf(platform).fields.ticked] === true);
}

export interface PlatformGap {
  videoId: number;
  /** What the form says on the video, in the server's words. */
  message: string;
  /** True when the video would get no post at all: the server refuses such a publish. */
  refused: boolean;
}

const namesOf = (platforms: PlatformName[]) => platforms.map((platform) => t.platform.names[platform]).join(', ');

/**
 * Videos whose profile lacks ticked platforms, as the server will find them (routes/upload-video.ts):
 * none of them refuses the publish, some of them is a warning the video keeps after publishing.
 * `numbers` is each video's place in its request, which the form names it by.
 */
export function platformGaps(
  assigned: AssignedVideo[],
  flags: TickedPlatforms,
  platformsOf: Map<number, PlatformName[]>,
  numbers: Map<number, number>,
): PlatformGap[] {
  const ticked = tickedPlatforms(flags);
  if (ticked.length === 0) return [];
  return assigned.flatMap(({ videoId, profile }) => {
    if (!profile) return [];
    const has = platformsOf.get(profile.id) ?? [];
    const missing = ticked.filter((platform) => !has.includes(platform));
    if (missing.length === 0) return [];
    const refused = missing.length === ticked.length;
    return [
      {
        videoId,
        refused,
        message: refused
          ? t.postTruth.noPlatformFor(t.publish.video(numbers.get(videoId)!), profile.title, namesOf(ticked))
          : t.postTruth.platformsMissing(
              profile.title,
              missing.map((platform) => t.platform.names[platform]),
            ),
      },
    ];
  });
}
