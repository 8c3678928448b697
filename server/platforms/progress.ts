import type { PublishProgressStore } from './types';

/** Progress kept in this process only: resumes within one worker's life, not across a crash. */
export function memoryProgressStore(): PublishProgressStore & { entries: Map<string, object> } {
  const entries = new Map<string, object>();
  return {
    entries,
    async load(publishKey) {
      return entries.get(publishKey);
    },
    async save(publishKey, progress) {
      entries.set(publishKey, structuredClone(progress));
    },
  };
}
