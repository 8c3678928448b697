import { platformOf, type Platform } from './platforms';
import type { TextCounter } from './platforms/descriptor';
import { captionRoom, captionText, hashtagCount, hashtags, publishKey } from './posting-rules/caption';
import { refusalText, textRefusal, type Refusal } from './posting-rules';
import { normalizeTag, tagSeparator } from './tags';
import { fillTemplate, worstFill, type TemplateValues } from './text-template';

/**
 * A post's words per platform (issue 43.2): the set's own title, description and tags, a
 * platform's own where the publish gave them (`texts`), each filled per post (src/lib/text-template.ts),
 * and measured against the platform's limits from its descriptor (`textCounters`). The publish form
 * and the publish route both read them from here.
 */

export interface PostText {
  title: string;
  description: string;
  tags: string[];
}

/** `texts` of the publish payload: a platform's own words, each field left out taking the set's. */
export type PlatformTexts = Partial<Record<Platform, Partial<PostText> | undefined>>;

/**
 * A platform's text before its variables are filled: its own fields where given, the set's for the
 * rest. A blank title or an empty tag list is none, as the set must have both; an empty description is one.
 */
export function platformText(common: PostText, texts: PlatformTexts | undefined, platform: Platform): PostText {
  const own = texts?.[platform];
  return {
    title: own?.title?.trim() || common.title,
    description: own?.description !== undefined ? own.description.trim() : common.description,
    tags: own?.tags?.length ? own.tags : common.tags,
  };
}

/** What picks one post's spintax choices: the same post (video, platform, profile) always picks the same words. */
export const postSeed = (videoId: number, platform: Platform, accountId: number) => `${videoId}:${platform}:${accountId}`;

/** A filled tag as tags are kept: lower-cased, with no separator inside (a profile's name of two words makes one tag). */
const filledTag = (tag: string) => normalizeTag(tag.replace(new RegExp(tagSeparator, 'g'), ''));

/** One post's final words: its platform's text with the variables and spintax filled for it. */
export function postWords(text: PostText, values: TemplateValues, seed: string): PostText {
  const tags = text.tags.map((tag, index) => filledTag(fillTemplate(tag, values, `${seed}/tags/${index}`))).filter(Boolean);
  return {
    title: fillTemplate(text.title, values, `${seed}/title`).trim(),
    description: fillTemplate(text.description, values, `${seed}/description`).trim(),
    tags: [...new Set(tags)],
  };
}

const utf8Bytes = (text: string) => new TextEncoder().encode(text).length;

const weightOf: Record<TextCounter['unit'], (text: string) => number> = {
  characters: (text) => text.length,
  bytes: utf8Bytes,
  hashtags: hashtagCount,
};

/** What a counter measures in a post's words, in its unit. */
function measured(counter: TextCounter, text: PostText): number {
  const weight = weightOf[counter.unit];
  if (counter.field === 'caption') return weight(captionText([text.title, text.description, hashtags(text.tags)]));
  if (counter.field === 'tags') return weight(text.tags.join(' '));
  return weight(text[counter.field]);
}

/** What a template's worst case is filled with: the longest of the chosen profiles' names, the largest variant number. */
export interface WorstValues {
  profiles: string[];
  numbers: number[];
  /** The largest video id of the set: the longest publish key takes the most of a caption's room. */
  videoId: number;
}

/**
 * The text's worst case for one unit: each variable at its heaviest value, each spintax at its
 * heaviest choice. A date is always ten characters (dd.mm.yyyy).
 */
function worstText(text: PostText, unit: TextCounter['unit'], worst: WorstValues): PostText {
  const weight = weightOf[unit];
  const profile = worst.profiles.reduce((heaviest, name) => (weight(name) > weight(heaviest) ? name : heaviest), '');
  const values: TemplateValues = { profile, n: Math.max(1, ...worst.numbers), date: '00.00.0000' };
  const fill = (template: string) => worstFill(template, values, weight);
  return { title: fill(text.title).trim(), description: fill(text.description).trim(), tags: text.tags.map((tag) => filledTag(fill(tag))) };
}

/** A counter as the form shows it: how much the worst case uses of what the platform allows. */
export interface Count {
  counter: TextCounter;
  used: number;
  limit: number;
}

/**
 * Each of the platform's counters on a text's worst case. A caption's characters are counted
 * against what the publish key's line leaves of the limit, as the connector sends it.
 */
export function textCounts(platform: Platform, text: PostText, worst: WorstValues): Count[] {
  return platformOf(platform).textCounters.map((counter: TextCounter) => ({
    counter,
    used: measured(counter, worstText(text, counter.unit, worst)),
    limit:
      counter.field === 'caption' && counter.unit === 'characters'
        ? captionRoom(counter.limit, publishKey(worst.videoId, platform))
        : counter.limit,
  }));
}

/** The platform's refusal of a counter over its limit, in the posting rules' codes (the same words as a post's own check). */
function overflow(platform: Platform, { counter, used, limit }: Count): Refusal | null {
  if (used <= limit) return null;
  if (counter.unit === 'hashtags') return { code: 'tooManyHashtags', count: used, limit };
  if (counter.field === 'caption') return { code: 'captionTooLong', platform, length: used, room: limit };
  if (counter.unit === 'bytes') return { code: 'descriptionTooLong', bytes: used, limit };
  return { code: 'titleTooLong', length: used, limit };
}

/** The field of the form a refusal is shown on: a caption's length on the description, its hashtags on the tags. */
function fieldOf(refusal: Refusal): keyof PostText {
  if (refusal.code === 'tooManyHashtags') return 'tags';
  if (refusal.code === 'titleTooLong') return 'title';
  if (refusal.code === 'angleBrackets') return refusal.field;
  return 'description';
}

export interface TextProblem {
  platform: Platform;
  field: keyof PostText;
  message: string;
}

/**
 * What the ticked platforms refuse in the words they would get, as the operator's words, at most
 * one per platform and field.
 *
 * The template's worst case is checked, not only the fills the posts happen to get: a text that fits
 * only by the luck of the hash would break when a profile or a variant changes, and the form must
 * say so as the operator types, before any post exists. The route checks each post's own filled
 * words again as it plans them (checkPost), with their exact profile and publish key.
 */
export function textProblems(common: PostText, texts: PlatformTexts | undefined, ticked: Platform[], worst: WorstValues): TextProblem[] {
  const problems: TextProblem[] = [];
  for (const platform of ticked) {
    const text = platformText(common, texts, platform);
    const refusals = textCounts(platform, text, worst).map((count) => overflow(platform, count));
    refusals.push(textRefusal(platform, worstText(text, 'characters', worst)));
    for (const refusal of refusals) {
      if (!refusal) continue;
      const field = fieldOf(refusal);
      if (!problems.some((problem) => problem.platform === platform && problem.field === field)) {
        problems.push({ platform, field, message: refusalText(refusal, '') });
      }
    }
  }
  return problems;
}

/** A post's own words as a row keeps them (video_posts.title, description, tags): null where the post says the set's. */
export interface OwnWords {
  title: string | null;
  description: string | null;
  tags: string[] | null;
}

/**
 * The words a post is sent with, and shown with: its own where it keeps them, else its set's.
 * Every sender (the publish job, the edit of a published set) and every page reads them through here.
 */
export function wordsOf(post: OwnWords, set: { title: string | null; description: string; tags: string[] }): PostText {
  return { title: post.title ?? set.title ?? '', description: post.description ?? set.description, tags: post.tags ?? set.tags };
}

/** What a post keeps of its final words: null for each field that is the set's own, so a plain publish stores none. */
export function ownWords(words: PostText, set: PostText): OwnWords {
  const sameTags = words.tags.length === set.tags.length && words.tags.every((tag, index) => tag === set.tags[index]);
  return {
    title: words.title === set.title ? null : words.title,
    description: words.description === set.description ? null : words.description,
    tags: sameTags ? null : words.tags,
  };
}
