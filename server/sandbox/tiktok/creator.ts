import crypto from 'node:crypto';
import { accountLabel } from '../common';

/**
 * What creator_info/query offers an account. TikTok, "Content Posting API – Query Creator Info":
 * `privacy_level_options` lists what the creator's account allows (a private account offers
 * FOLLOWER_OF_CREATOR instead of PUBLIC_TO_EVERYONE), `comment_disabled` / `duet_disabled` /
 * `stitch_disabled` follow the creator's app settings, and `max_video_post_duration_sec` their
 * allowed length. "Direct Post": content posted by an unaudited client is restricted to
 * SELF_ONLY, so an unaudited app (SANDBOX_TIKTOK_UNAUDITED=1) is offered that alone.
 *
 * Sandbox accounts differ deterministically by their login (the SHA-256 of `tiktok-creator:<login>`):
 * the first byte's low two bits 0 make a private account; bits 2, 3 and 4 disable comments, duets
 * and stitches; bits 5–6 pick the longest video from 600, 180, 300 and 3600 seconds.
 */
export function creatorSettings(account: string, unaudited: boolean) {
  const byte = crypto
    .createHash('sha256')
    .update(`tiktok-creator:${accountLabel(account)}`)
    .digest()[0];
  const privateAccount = (byte & 0b11) === 0;
  const options = unaudited
    ? ['SELF_ONLY']
    : privateAccount
      ? ['FOLLOWER_OF_CREATOR', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY']
      : ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'];
  return {
    privacy_level_options: options,
    comment_disabled: Boolean(byte & 0b100),
    duet_disabled: Boolean(byte & 0b1000),
    stitch_disabled: Boolean(byte & 0b10000),
    max_video_post_duration_sec: [600, 180, 300, 3600][(byte >> 5) & 0b11],
  };
}
