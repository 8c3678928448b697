/** A tag as it is kept: trimmed and lower-cased; an empty string means nothing to add. */
export function normalizeTag(raw: string): string {
  return raw.trim().toLowerCase();
}

/**
 * What ends a tag: a space (SPEC's Space key), a comma or a semicolon. No tag holds one, so the
 * detail's comma-separated `tags` reads back as it was saved.
 */
export const tagSeparator = /[\s,;]+/;

/** Adds the tags of `input`, split at every separator, to `tags`, skipping empty ones and duplicates. */
export function addTags(tags: string[], input: string): string[] {
  const result = [...tags];
  for (const word of input.split(tagSeparator)) {
    const tag = normalizeTag(word);
    if (tag && !result.includes(tag)) result.push(tag);
  }
  return result;
}
