import { createStore } from '@xstate/store';
import { createJSONStorage, persist } from '@xstate/store/persist';
import type { PublishVideoItem, SelectOption } from '../lib/contract';
import type { PublishFields } from '../lib/schemas';

export interface PublishDraft {
  fields?: PublishFields;
  accounts?: SelectOption[];
  videos?: PublishVideoItem[];
  /** When it was last kept (ms), so the oldest drafts make room for new ones. */
  keptAt?: number;
}

/** Drafts beyond this many are dropped, oldest first: localStorage is small and shared. */
const draftLimit = 30;

/** A draft belongs to the user who typed it: two operators on one browser never see each other's. */
export const draftKeyOf = (userId: number | undefined, idUpload: string | undefined) =>
  userId !== undefined && idUpload ? `${userId}/${idUpload}` : undefined;

function newestOnly(drafts: Record<string, PublishDraft>): Record<string, PublishDraft> {
  const entries = Object.entries(drafts);
  if (entries.length <= draftLimit) return drafts;
  return Object.fromEntries(entries.sort(([, a], [, b]) => (b.keptAt ?? 0) - (a.keptAt ?? 0)).slice(0, draftLimit));
}

/**
 * Publish forms left half-filled, by user and request, kept in localStorage: an operator who
 * steps away, reloads or signs in again after their session ended finds the form as they left
 * it; a publication sent forgets its draft, and signing out forgets them all.
 */
export const publishDrafts = createStore({
  context: { drafts: {} as Record<string, PublishDraft> },
  on: {
    keep: (context, event: { key: string; draft: PublishDraft }) => {
      const { [event.key]: earlier, ...others } = context.drafts;
      // The kept draft goes first: among drafts kept in the same millisecond it is the newest, and the sort keeps ties in order.
      return { drafts: newestOnly({ [event.key]: { ...earlier, ...event.draft, keptAt: Date.now() }, ...others }) };
    },
    forget: (context, event: { key: string }) => {
      const { [event.key]: _sent, ...rest } = context.drafts;
      return { drafts: rest };
    },
    forgetAll: () => ({ drafts: {} }),
  },
}).with(persist({ name: 'shorts-office.publish-drafts', version: 1, storage: createJSONStorage(() => localStorage) }));

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The draft kept under `key`, with only the parts that still have the shape of the form: a draft
 * written by an older version of the app, or edited by hand, must not break the form.
 */
export function draftOf(key: string | undefined): PublishDraft | undefined {
  const stored: unknown = key ? publishDrafts.getSnapshot().context.drafts[key] : undefined;
  if (!isObject(stored)) return undefined;
  const draft: PublishDraft = {};
  if (isObject(stored.fields) && typeof stored.fields.title === 'string') draft.fields = stored.fields as unknown as PublishFields;
  if (Array.isArray(stored.accounts) && stored.accounts.every((item) => isObject(item) && Number.isInteger(item.id))) {
    draft.accounts = stored.accounts as SelectOption[];
  }
  if (Array.isArray(stored.videos) && stored.videos.every((item) => isObject(item) && Number.isInteger(item.id))) {
    draft.videos = stored.videos as PublishVideoItem[];
  }
  return draft;
}

/**
 * The request's videos as the draft left them: each keeps the profile and date it had, videos the
 * operator removed stay removed, and the fresh list's signed links replace the draft's stale ones.
 * A draft naming videos the request no longer has is ignored.
 */
export function videosFromDraft(fresh: PublishVideoItem[], draft: PublishVideoItem[] | undefined): PublishVideoItem[] {
  if (!draft) return fresh;
  const byId = new Map(fresh.map((video) => [video.id, video]));
  if (!draft.every((video) => byId.has(video.id))) return fresh;
  return draft.map((video) => ({
    ...byId.get(video.id)!,
    account: video.account ?? null,
    date: video.date ?? '',
    byHand: video.byHand ?? false,
    lostProfile: video.lostProfile ?? null,
  }));
}
