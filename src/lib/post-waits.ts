import type { PlatformName, WaitKind } from './contract';
import * as t from './i18n';
import { failureText, type PostFailure } from './post-failures';

/**
 * Why a pending post has not gone out yet, as video_posts stores it (wait_kind and wait_detail,
 * migration 0030): a kind the code decides on, and the figures its words need. The words are made
 * from them only where the API answers or a screen renders, so rewording the catalog changes no
 * decision.
 */
export { waitKinds } from './contract';

/**
 * The waits that hold a post back ('Утримано') rather than leave it due: a cap's window, a
 * platform's quota, a reconnection of its profile. A retry after a failed attempt is not one.
 */
export const heldWaitKinds: readonly WaitKind[] = ['cap', 'quota', 'reconnect'];

export const isHeld = (kind: WaitKind | null): boolean => kind !== null && heldWaitKinds.includes(kind);

/** A posting cap counted here (a window of `windowHours`, or YouTube's Pacific day when null), or one the platform answered. */
export type CapDetail = { limit: number; windowHours: number | null } | { refused: true };

export type PostWait =
  /** An attempt failed and the post is tried again; `failure` is why, as the post's failure keeps it (post-failures.ts). */
  | { kind: 'retry'; detail: { failure: PostFailure } }
  /** The profile is uploading another video to the same platform. */
  | { kind: 'busy'; detail: Record<string, never> }
  /** The platform asked for a longer wait than a retry makes (a quota, a long Retry-After). */
  | { kind: 'quota'; detail: { failure: PostFailure } }
  | { kind: 'cap'; detail: CapDetail }
  /** The platform no longer honours the profile's grant: the post waits until the profile is connected again. */
  | { kind: 'reconnect'; detail: Record<string, never> };

/** The sentence the set's page and the calendar's title give a post's wait on a platform. */
export function waitText(platform: PlatformName, { kind, detail }: PostWait): string {
  const name = t.platform.names[platform];
  switch (kind) {
    case 'retry':
      return t.postTruth.waitRetry(failureText(platform, detail.failure));
    case 'busy':
      return t.postTruth.waitBusyProfile(name);
    case 'quota':
      return t.postTruth.waitPlatform(failureText(platform, detail.failure));
    case 'reconnect':
      return t.connections.revoked(name);
    case 'cap':
      if ('refused' in detail) return t.postingCaps.platformHeld(name);
      if (detail.windowHours === null) return t.postingCaps.youtubeHeld(detail.limit);
      return t.postingCaps.rollingHeld(name, detail.limit, detail.windowHours);
  }
}

/** A post's wait as video_posts holds it: the post's platform, its wait_kind (null when it does not wait) and wait_detail. */
export interface StoredWait {
  platform: PlatformName;
  kind: WaitKind | null;
  detail: unknown;
}

/** A post's stored wait as the API answers it: the kind, and the sentence made from it. */
export function waitFields(wait: StoredWait | null): { waitKind: WaitKind | null; waitReason: string | null } {
  if (!wait?.kind) return { waitKind: null, waitReason: null };
  return { waitKind: wait.kind, waitReason: waitText(wait.platform, { kind: wait.kind, detail: wait.detail } as PostWait) };
}
