import type { SelectOption } from './contract';

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
