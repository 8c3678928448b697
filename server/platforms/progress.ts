import type { PublishProgressStore } from './types';
import type { Database } from '../db/connect';
import type { Clock } from '../clock';
import { platformIds } from '../../src/lib/platforms';

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

const publishKeyPattern = new RegExp(`^video-(\\d+)-(${platformIds.join('|')})$`);

function postOf(publishKey: string): [number, string] {
  const match = publishKeyPattern.exec(publishKey);
  if (!match) throw new Error(`not a publish key: ${publishKey}`);
  return [Number(match[1]), match[2]!];
}

/**
 * Progress in the publication's own row (video_posts.progress), so whichever worker runs the
 * job next, after a crash or on another machine, resumes the upload or finds it finished.
 */
export function databaseProgressStore(db: Database, clock: Clock): PublishProgressStore {
  return {
    async load(publishKey) {
      const { rows } = await db.sql('SELECT progress FROM video_posts WHERE video_id = $1 AND platform = $2', postOf(publishKey));
      return rows[0]?.progress ?? undefined;
    },
    async save(publishKey, progress) {
      await db.sql('UPDATE video_posts SET progress = $3::jsonb, updated_at = $4 WHERE video_id = $1 AND platform = $2', [
        ...postOf(publishKey),
        JSON.stringify(progress),
        new Date(clock.now()),
      ]);
    },
  };
}
