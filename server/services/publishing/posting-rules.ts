import { platformIds } from '../../../src/lib/platforms';
import { inArray } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import type { PostOptions, TikTokCreatorRules } from '../../../src/lib/contract';
import { postRefusal, refusalText, resolveChoices, textRefusal, type ResolvedOptions } from '../../../src/lib/posting-rules';
import type { PostedVideo } from '../../../src/lib/posting-rules/refusal';
import type { Database } from '../../db/connect';
import { accounts, postingDefaults } from '../../db/schema';
import { HttpError } from '../../http-error';
import { profileContext, type PlatformAccess } from '../../platforms/profile-context';
import { tiktok } from '../../platforms/tiktok/connector';
import { memoryProgressStore } from '../../platforms/progress';
import { publishKey, type Platform } from '../../platforms/types';

export type { ResolvedOptions } from '../../../src/lib/posting-rules';

/** Each profile's remembered choices, by account id. */
export async function savedDefaults(db: Database, accountIds: number[]): Promise<Map<number, PostOptions>> {
  const saved = new Map<number, PostOptions>(accountIds.map((id) => [id, {}]));
  if (accountIds.length === 0) return saved;
  const rows = await db.orm.select().from(postingDefaults).where(inArray(postingDefaults.accountId, accountIds));
  for (const row of rows) saved.get(row.accountId)![row.platform] = row.options as never;
  return saved;
}

/** Remembers a profile's choices at `at`, one row per platform given; a platform left out keeps what it had. */
export async function saveDefaults(db: Database, accountId: number, options: PostOptions, at: Date) {
  for (const platform of platformIds) {
    if (!options[platform]) continue;
    const chosen = Object.fromEntries(Object.entries(options[platform]).filter(([, field]) => field !== undefined));
    await db.orm
      .insert(postingDefaults)
      .values({ accountId, platform, options: chosen, updatedAt: at })
      .onConflictDoUpdate({
        target: [postingDefaults.accountId, postingDefaults.platform],
        set: { options: chosen, updatedAt: at },
      });
  }
}

/**
 * A post's choices on one platform (src/lib/posting-rules): what the publish sent over what the
 * profile remembers over the platform's defaults; a required choice nobody made is refused.
 */
export function resolveOptions(platform: Platform, given: PostOptions | undefined, saved: PostOptions, profile: string): ResolvedOptions {
  const resolved = resolveChoices(platform, given, saved);
  if (resolved.refusal) throw new HttpError(400, refusalText(resolved.refusal, profile));
  return resolved.options;
}

/** The checks of one post that need no platform call (src/lib/posting-rules), refused in the operator's words. */
export function checkPost(
  platform: Platform,
  options: ResolvedOptions,
  video: PostedVideo & { id: number },
  texts: { title: string; description: string; tags: string[] },
  creator: TikTokCreatorRules | null,
  profile: string,
) {
  const refusal = postRefusal(platform, options, { ...video, publishKey: publishKey(video.id, platform) }, texts, creator);
  if (refusal) throw new HttpError(400, refusalText(refusal, profile));
}

/** What the given platforms refuse in the texts alone (src/lib/posting-rules), refused in the operator's words. */
export function checkTexts(platforms: Platform[], texts: { title: string; description: string; tags: string[] }) {
  for (const platform of platforms) {
    const refusal = textRefusal(platform, texts);
    if (refusal) throw new HttpError(400, refusalText(refusal, ''));
  }
}

/** How long the creator_info call may take before the publish goes on without it. */
const creatorTimeoutMs = 15_000;

export type CreatorRulesReader = (
  account: typeof accounts.$inferSelect,
  settings: PlatformAccess,
  secretsKey: Buffer,
  /** Save takes an answer read in the last minutes; the form always reads afresh. */
  reuse: boolean,
) => Promise<{ rules: TikTokCreatorRules | null; error: string | null }>;

/**
 * How long a creator_info answer is reused: the publish form reads it when a profile is chosen and
 * Save checks the plan against it moments later, so Save does not wait on every profile's proxy
 * again. The publish job reads it afresh before video/init, so a stale answer refuses nothing.
 */
const creatorAnswerMs = 2 * 60_000;

/**
 * Reads what TikTok's creator_info allows a profile now, or why it could not be read, keeping
 * each answer per app (one reader per server) until the profile changes or the answer ages.
 * The publish job checks the same answer again before video/init, so a publish is not refused
 * for a slow answer.
 */
export function creatorRulesReader(db: Database): CreatorRulesReader {
  type Answer = { rules: TikTokCreatorRules | null; error: string | null };
  // One entry per TikTok profile, forgotten once it ages: far more profiles than an installation has.
  const answers = new LRUCache<number, { profileVersion: number; answer: Answer }>({ max: 10_000, ttl: creatorAnswerMs });
  return async (account, settings, secretsKey, reuse) => {
    const profileVersion = account.updatedAt.getTime();
    const kept = answers.get(account.id);
    if (reuse && kept && kept.profileVersion === profileVersion) return kept.answer;
    let answer: Answer;
    try {
      const ctx = await profileContext(account, 'tiktok', { db, secretsKey, settings, progress: memoryProgressStore() });
      answer = { rules: await tiktok.creatorRules({ ...ctx, signal: AbortSignal.timeout(creatorTimeoutMs) }), error: null };
    } catch (error) {
      answer = { rules: null, error: (error as Error).message };
    }
    // A failed read is kept too: Save then goes on without it at once rather than wait on a dead proxy again.
    answers.set(account.id, { profileVersion, answer });
    return answer;
  };
}
