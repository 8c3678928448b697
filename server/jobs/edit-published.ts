import type { YouTubePostOptions } from '../../src/lib/contract';
import { and, eq } from 'drizzle-orm';
import { accounts, creationRequests, videoPosts, videos } from '../db/schema';
import { ProfileAuthError } from '../platforms/errors';
import type { PostFailure } from '../../src/lib/post-failures';
import { recordAccessFailure } from '../platforms/connections';
import { profileContext } from '../platforms/profile-context';
import { memoryProgressStore } from '../platforms/progress';
import { withRetry } from '../net/retry';
import { publishKey } from '../platforms/types';
import { youtubeSpending } from '../services/statistics/quota-ledger';
import { finishEdit, type EditPublishedJobData } from '../services/publishing/post-lifecycle';
import { youtube } from '../platforms/youtube/connector';
import type { JobContext } from './types';
import { failureOf, publishRetry } from './publish';
import { wordsOf } from '../../src/lib/post-texts';

/** How many times a job applies texts that changed while it was applying them before it gives up. */
const maxPasses = 3;

/**
 * Carries the set's current title, description and tags to one YouTube post. The texts are read
 * when the job runs, and read again after YouTube took them: if another edit landed meanwhile,
 * they go again, so two quick edits never leave the older texts on YouTube.
 */
export async function editPublishedPost(
  { postId }: EditPublishedJobData,
  { db, log, keys, platforms, signal, engine }: JobContext,
): Promise<void> {
  const finish = (failure: PostFailure | null) => finishEdit(db, postId, failure, new Date(platforms.clock.now()));

  const textsOf = async () => {
    const [row] = await db.orm
      .select({
        post: videoPosts,
        title: creationRequests.title,
        description: creationRequests.description,
        tags: creationRequests.tags,
        editedAt: creationRequests.updatedAt,
      })
      .from(videoPosts)
      .innerJoin(videos, eq(videos.id, videoPosts.videoId))
      .innerJoin(creationRequests, eq(creationRequests.id, videos.requestId))
      .where(and(eq(videoPosts.id, postId), eq(videoPosts.editState, 'pending')));
    return row;
  };

  let texts = await textsOf();
  if (!texts?.post.remoteId) return;
  const [account] = texts.post.accountId === null ? [] : await db.orm.select().from(accounts).where(eq(accounts.id, texts.post.accountId));
  if (!account) {
    await finish({ kind: 'profile_deleted' });
    return;
  }

  try {
    const ctx = {
      ...(await profileContext(account, 'youtube', {
        db,
        secretsKey: keys.secretsAtRest,
        settings: platforms,
        progress: memoryProgressStore(),
      })),
      signal,
      spendUnits: youtubeSpending(db, account, engine.statsSync, platforms.clock, log),
    };
    for (let pass = 1; pass <= maxPasses && texts; pass++) {
      const sent = texts;
      await withRetry(
        () =>
          youtube.updateVideo(ctx, sent.post.remoteId!, {
            ...wordsOf(sent.post, sent),
            publishKey: publishKey(sent.post.videoId, 'youtube'),
            categoryId: (sent.post.options as YouTubePostOptions | null)?.categoryId,
          }),
        {
          ...publishRetry,
          signal,
          sleep: platforms.clock.sleep,
          onRetry: ({ attempt, delayMs, error }) => log.warn({ postId, attempt, delayMs, err: error }, 'edit attempt failed, retrying'),
        },
      );
      texts = await textsOf();
      if (!texts || texts.editedAt.getTime() === sent.editedAt.getTime()) break;
    }
    await finish(null);
    log.info({ postId }, 'edit carried to YouTube');
  } catch (error) {
    if (error instanceof ProfileAuthError) {
      const at = new Date(platforms.clock.now());
      await recordAccessFailure(db.sql, { accountId: account.id, platform: 'youtube', source: 'edit', detail: error.detail, at });
    }
    await finish(failureOf(error));
    log.warn({ postId, err: error }, 'edit not carried to YouTube');
  }
}
