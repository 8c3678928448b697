/**
 * A post's caption on TikTok and Instagram: the title, the description and the tags as hashtags,
 * with the publish key as its last line (how a connector finds the post again after an ambiguous
 * failure). The key and the blank line before it take their room from the platform's limit.
 */

import type { Platform } from '../platforms';

/** The key a post carries on its platform (the caption's last line, YouTube's first tag): one per video and platform. */
export function publishKey(videoId: number, platform: Platform): string {
  return `video-${videoId}-${platform}`;
}

/** A hashtag as Instagram links it: '#' and the letters, digits and underscores after it. */
const hashtag = /#[\p{L}\p{N}_]+/gu;

/** The hashtags of a text, as Instagram counts them. */
export function hashtagCount(text: string): number {
  return text.match(hashtag)?.length ?? 0;
}

/** Tags as hashtags: letters, digits and underscores only, a tag left empty dropped. */
export function hashtags(tags: string[]): string {
  return tags
    .map((tag) => tag.replace(/[^\p{L}\p{N}_]/gu, ''))
    .filter(Boolean)
    .map((tag) => `#${tag}`)
    .join(' ');
}

/** The characters the title, description and hashtags may take once the key's line has its room. */
export function captionRoom(limit: number, publishKey: string): number {
  return limit - publishKey.length - 2;
}

/** The caption's text before the key: its non-blank parts, a blank line between each. */
export function captionText(parts: string[]): string {
  return parts.filter((part) => part.trim() !== '').join('\n\n');
}

/** The caption as sent: the text cut to its room, then the key on its own last line. */
export function captionWithMarker(parts: string[], publishKey: string, limit: number): string {
  const text = captionText(parts);
  const room = captionRoom(limit, publishKey);
  return `${text.length > room ? text.slice(0, room) : text}\n\n${publishKey}`.trimStart();
}
