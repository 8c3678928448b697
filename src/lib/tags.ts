/** A tag as it is kept: trimmed and lower-cased; an empty string means nothing to add. */
export function normalizeTag(raw: string): string {
  return raw.trim().toLowerCase();
}

/** Adds the whitespace-separated tags of `input` to `tags`, skipping empty ones and duplicates. */
export function addTags(tags: string[], input: string): string[] {
  const result = [...tags];
  for (const word of input.split(/\s+/)) {
    const tag = normalizeTag(word);
    if (tag && !result.includes(tag)) result.push(tag);
  }
  return result;
}
