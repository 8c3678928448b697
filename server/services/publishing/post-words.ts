import { profileName } from '../../../src/lib/profile-name';
import { ownWords, platformText, postSeed, postWords, type OwnWords, type PlatformTexts, type PostText } from '../../../src/lib/post-texts';
import type { SpreadProposal } from '../../../src/lib/contract';
import type { RunSql } from '../../db/connect';
import type { Platform } from '../../platforms/types';
import { templateDate } from '../../../src/lib/text-template';
import { t } from '../../messages';
import type { ProfileRow } from '../profiles/profile-rows';
import type { PlannedVideo } from './publication-plan';

/**
 * Each post's final words (issue 43.2), computed once as its posts are planned and kept on the
 * post (video_posts.title, description, tags), so a retry, a hold or a restart sends the same words.
 */

/** A profile as `{profile}` names it: its name as the pages show it (src/lib/profile-name.ts), else its number. */
export function templateProfile(row: Pick<ProfileRow, 'id' | 'comments' | 'youtubeLogin' | 'instagramLogin'>): string {
  const connectedAs = { youtube: row.youtubeLogin ?? undefined, instagram: row.instagramLogin ?? undefined };
  return profileName({ comments: row.comments ?? '', connectedAs }) || t.accounts.optionTitle(row.id, '');
}

/**
 * One post's final words: its platform's text (`texts` over the set's `common`), its variables
 * filled with its profile's name, its video's number and its Kyiv date, its spintax picked by the
 * post's own seed.
 */
export function plannedWords(
  common: PostText,
  texts: PlatformTexts | undefined,
  post: {
    videoId: number;
    accountId: number;
    platform: PlannedVideo['platforms'][number];
    scheduledAt: Date;
    profile: string;
    number: number;
  },
): PostText {
  const values = { profile: post.profile, n: post.number, date: templateDate(post.scheduledAt.getTime()) };
  return postWords(platformText(common, texts, post.platform), values, postSeed(post.videoId, post.platform, post.accountId));
}

/** The final words of each post of a plan, by video and platform. */
export function planWords(
  plan: PlannedVideo[],
  common: PostText,
  texts: PlatformTexts | undefined,
  profiles: Map<number, string>,
  numbers: Map<number, number>,
): Map<number, Map<PlannedVideo['platforms'][number], PostText>> {
  return new Map(
    plan.map((item) => [
      item.videoId,
      new Map(
        item.platforms.map((platform) => [
          platform,
          plannedWords(common, texts, {
            ...item,
            platform,
            profile: profiles.get(item.accountId) ?? '',
            number: numbers.get(item.videoId)!,
          }),
        ]),
      ),
    ]),
  );
}

type ProposalProfile = Pick<ProfileRow, 'id' | 'comments' | 'youtubeLogin' | 'instagramLogin'>;

/**
 * A spread proposal with each placed video's posts' final words where they are not the set's:
 * the proposal shows what each post will say (issue 43.2), filled as the publish will fill them.
 */
export function withProposedWords<Profile extends ProposalProfile>(
  proposal: SpreadProposal,
  set: {
    common: PostText;
    texts: PlatformTexts | undefined;
    profiles: Map<number, Profile>;
    numbers: Map<number, number>;
    platformsOf: (profile: Profile) => Platform[];
  },
): SpreadProposal {
  const data = proposal.data.map((item) => {
    const profile = set.profiles.get(item.accountId);
    if (!profile) return item;
    const posts = set.platformsOf(profile).flatMap((platform) => {
      const words = ownWords(
        plannedWords(set.common, set.texts, {
          videoId: item.videoId,
          accountId: item.accountId,
          platform,
          scheduledAt: new Date(item.date),
          profile: templateProfile(profile),
          number: set.numbers.get(item.videoId)!,
        }),
        set.common,
      );
      return words.title === null && words.description === null && words.tags === null ? [] : [{ platform, words }];
    });
    return posts.length > 0 ? { ...item, posts } : item;
  });
  return { ...proposal, data };
}

/** The words the set gives each of `postIds` where it stands now (null where the set's own), read in one statement. */
async function setWordsOf(run: RunSql, postIds: number[]) {
  if (postIds.length === 0) return [];
  const { rows } = await run(
    `SELECT p.id, p.video_id, p.platform, p.account_id, p.scheduled_at, p.title AS post_title, p.description AS post_description,
            p.tags AS post_tags, v.position, r.title, r.description, r.tags, r.platform_texts, a.comments, a.youtube_login, a.instagram_login
       FROM video_posts AS p JOIN videos AS v ON v.id = p.video_id JOIN creation_requests AS r ON r.id = v.request_id
       LEFT JOIN accounts AS a ON a.id = p.account_id
      WHERE p.id = ANY($1::int[])`,
    [postIds],
  );
  return rows.map((row) => {
    const common: PostText = { title: row.title ?? '', description: row.description, tags: row.tags };
    const profile =
      row.account_id === null
        ? ''
        : templateProfile({
            id: row.account_id,
            comments: row.comments,
            youtubeLogin: row.youtube_login,
            instagramLogin: row.instagram_login,
          });
    const words = plannedWords(common, row.platform_texts ?? undefined, {
      videoId: row.video_id,
      accountId: row.account_id ?? 0,
      platform: row.platform as Platform,
      scheduledAt: new Date(row.scheduled_at),
      profile,
      number: row.position + 1,
    });
    const stored: OwnWords = { title: row.post_title, description: row.post_description, tags: row.post_tags };
    return { id: row.id as number, platform: row.platform as Platform, set: ownWords(words, common), stored };
  });
}

/**
 * Fills the words of `postIds` again from the set's texts (its own and per platform) for each
 * post's profile, date and video: a move, a restore or an edit of the set calls it in its
 * transaction. A post whose words come out as the set's keeps none (null). `keep` holds, by
 * platform, the words a moved post keeps as its own (ownWordsOf).
 */
export async function refillWords(run: RunSql, postIds: number[], keep = new Map<Platform, Partial<OwnWords>>()): Promise<void> {
  for (const { id, platform, set } of await setWordsOf(run, postIds)) {
    const words = { ...set, ...keep.get(platform) };
    await run(`UPDATE video_posts SET title = $2, description = $3, tags = $4 WHERE id = $1`, [
      id,
      words.title,
      words.description,
      words.tags,
    ]);
  }
}

/**
 * By platform, the words of `postIds` that are not what the set gives them where they stand: a
 * post's own, as an imported plan's row wrote them. A move reads them before it, while each post
 * stands where its words were filled, keeps them, and fills the rest again for the new place.
 */
export async function ownWordsOf(run: RunSql, postIds: number[]): Promise<Map<Platform, Partial<OwnWords>>> {
  const own = new Map<Platform, Partial<OwnWords>>();
  for (const { platform, set, stored } of await setWordsOf(run, postIds)) {
    const kept: Partial<OwnWords> = {};
    if (stored.title !== set.title) kept.title = stored.title;
    if (stored.description !== set.description) kept.description = stored.description;
    if (JSON.stringify(stored.tags) !== JSON.stringify(set.tags)) kept.tags = stored.tags;
    own.set(platform, kept);
  }
  return own;
}
