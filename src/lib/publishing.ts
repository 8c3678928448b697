import { validate } from 'superstruct';
import type {
  PostOptions,
  PublicationRequestDetail,
  PublishPayload,
  PublishVideoItem,
  SelectOption,
  SpreadPayload,
  VideoPost,
} from './contract';
import * as t from './i18n';
import { platforms, type PlatformFieldName } from './platforms';
import { tickedPlatforms, ticksOf } from './assignment';
import type { PlatformTexts, PostText, WorstValues } from './post-texts';
import { publishAssignmentSchema, type PublishFields, type PublishForm } from './schemas';

type AssignableVideo = Pick<PublishVideoItem, 'account' | 'byHand' | 'lostProfile'>;

/**
 * Each video's place in its request (1, 2, …), by id: the publish form names videos so, since
 * their ids count every request's videos. The request's detail lists them in that order.
 */
export function videoNumbers(requestVideos: { id: number }[]): Map<number, number> {
  return new Map(requestVideos.map((video, index) => [video.id, index + 1]));
}

/**
 * SPEC.md: when profiles are chosen, the video at position i gets the i-th chosen profile.
 * Videos beyond the chosen count stay on 'Будь-який' (null), which the server fills round-robin.
 * A profile the operator picked by hand stays while it is still chosen; once it is removed from
 * the choice, the video goes back to the rule and keeps the removed profile to say so.
 */
export function assignProfilesInOrder<Video extends AssignableVideo>(videos: Video[], chosen: SelectOption[]): Video[] {
  return videos.map((video, index) => {
    if (video.byHand && video.account) {
      if (chosen.some((profile) => profile.id === video.account!.id)) return video;
      return { ...video, account: chosen[index] ?? null, byHand: false, lostProfile: video.account };
    }
    return { ...video, account: chosen[index] ?? null };
  });
}

/** Profiles chosen first keep their place; a group adds the ones not chosen yet. */
export function withProfiles(chosen: SelectOption[], added: SelectOption[]): SelectOption[] {
  const ids = new Set(chosen.map((option) => option.id));
  return [...chosen, ...added.filter((option) => !ids.has(option.id))];
}

/** The videos a publication opens with: every rendered video of the request, none assigned yet. */
export function publishVideosOf(detail: PublicationRequestDetail): PublishVideoItem[] {
  return detail.video.flatMap((item) =>
    item.url ? [{ id: item.id, url: item.url, idUpload: item.idUpload, createdAt: item.createdAt, account: null, date: '' }] : [],
  );
}

/** The publish form's own fields as it opens. */
export const emptyPublishFields: PublishFields = {
  title: '',
  description: '',
  tags: [],
  ...(Object.fromEntries(platforms.map((platform) => [platform.fields.ticked, false])) as Record<PlatformFieldName<'ticked'>, boolean>),
  // YouTube is ticked as the form opens, as SPEC's form was.
  inYouTube: true,
  date: '',
};

export interface AssignmentErrors {
  accounts?: string;
  video?: string;
  /** No platform ticked: nothing would be published. */
  platforms?: string;
  /** What a ticked platform refuses in the title, the description or the tags (src/lib/posting-rules). */
  texts?: string;
}

/** The spec's messages for the chosen profiles and the videos left, by field. */
export function assignmentErrors(accounts: SelectOption[], video: PublishVideoItem[]): AssignmentErrors {
  const [failure] = validate({ accounts, video }, publishAssignmentSchema);
  if (!failure) return {};
  return Object.fromEntries(failure.failures().map((each) => [each.path[0], each.message]));
}

/** An empty date field means "no date": the form's date for a video, at once for the form. */
const dateOrNull = (value: string | null | undefined) => (value ? value : null);

/**
 * A chosen profile as SPEC's payload has it. The form's options also carry what the form shows
 * beside them (the platforms a profile has), which the route refuses as an unknown field.
 */
const chosen = ({ id, title, value }: SelectOption): SelectOption => ({ id, title, value });

/** The set's own words as the server reads the form's: trimmed. */
export function commonText(fields: Pick<PublishFields, 'title' | 'description' | 'tags'>): PostText {
  return { title: fields.title.trim(), description: (fields.description ?? '').trim(), tags: fields.tags };
}

/**
 * What the form fills a template's worst case with: the chosen profiles' names as the pickers show
 * them (their number too, never shorter than the name `{profile}` gets), the set's variant numbers,
 * and its largest video id, whose publish key takes the most of a caption's room.
 */
export function worstValuesOf(
  accounts: SelectOption[],
  videos: { id: number }[],
  detail: Pick<PublicationRequestDetail, 'video'> | null,
): WorstValues {
  const ids = (detail?.video ?? videos).map((video) => video.id);
  return {
    profiles: accounts.map((profile) => profile.title),
    numbers: [...videoNumbers(detail?.video ?? videos).values()],
    videoId: Math.max(0, ...ids),
  };
}

/**
 * The form's own words per platform as the payload sends them: the ticked platforms' fields the
 * operator filled; an empty one takes the set's. None at all sends no `texts`, as SPEC's payload.
 */
export function sentTexts(form: PublishFields): PlatformTexts | undefined {
  const sent = tickedPlatforms(form).flatMap((platform) => {
    const own = form.texts?.[platform];
    const text = {
      ...(own?.title?.trim() ? { title: own.title } : {}),
      ...(own?.description?.trim() ? { description: own.description } : {}),
      ...(own?.tags?.length ? { tags: own.tags } : {}),
    };
    return Object.keys(text).length > 0 ? [[platform, text] as const] : [];
  });
  return sent.length > 0 ? Object.fromEntries(sent) : undefined;
}

/** The form's words as a spread sends them, so its proposal shows each post's final words. */
export function spreadWordsOf(form: PublishFields): Pick<SpreadPayload, 'title' | 'description' | 'tags' | 'texts'> {
  const texts = sentTexts(form);
  return { title: form.title, description: form.description ?? '', tags: form.tags, ...(texts ? { texts } : {}) };
}

/** What POST /api/upload-video/{idUpload} receives for the form's values. */
export function publishPayloadOf(requestId: number, form: PublishForm): PublishPayload {
  return {
    id: requestId,
    title: form.title,
    description: form.description,
    tags: form.tags,
    accounts: form.accounts.map(chosen),
    video: form.video.map((video) => ({
      id: video.id,
      url: video.url,
      idUpload: video.idUpload,
      createdAt: video.createdAt,
      account: video.account ? chosen(video.account) : null,
      date: dateOrNull(video.date),
    })),
    ...ticksOf(form),
    date: dateOrNull(form.date),
    ...(form.options ? { options: form.options as PostOptions } : {}),
    ...(sentTexts(form) ? { texts: sentTexts(form) } : {}),
  };
}

interface VideoErrors {
  error: string | null;
  errorInstagram: string | null;
  errorTiktok?: string | null;
  posts?: Pick<VideoPost, 'state' | 'error'>[];
}

/**
 * SPEC.md section 4: the YouTube error, else the Instagram error, else SPEC's 'N/A', said in
 * Ukrainian ('Причину не вказано'). The spec predates TikTok errors; a video that failed only there
 * shows TikTok's reason, which the lists without errorTiktok read from its failed post.
 */
export function videoErrorText(video: VideoErrors): string {
  const failedPost = video.posts?.find((post) => post.state === 'failed')?.error;
  return video.error || video.errorInstagram || video.errorTiktok || failedPost || t.published.noError;
}

/** Whether a published set still has videos on their way, so its page keeps refreshing. */
export function hasVideosInProgress(videos: { status: string }[]): boolean {
  return videos.some((video) => video.status === 'loading' || video.status === 'publication');
}

/** The detail keeps tags as one comma-separated string; the form edits them as a list. */
export function tagsFromText(text: string): string[] {
  return text
    .split(',')
    .map((tag) => tag.trim())
    .filter(Boolean);
}
