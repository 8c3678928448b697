import { createStore } from '@xstate/store';
import type { PublishVideoItem, SelectOption } from '../lib/contract';
import type { PublishFields } from '../lib/schemas';

export interface PublishDraft {
  fields?: PublishFields;
  accounts?: SelectOption[];
  videos?: PublishVideoItem[];
}

/**
 * Publish forms left half-filled, by request: an operator who steps away (to check a profile, say)
 * finds the form as they left it; a publication sent forgets its draft.
 */
export const publishDrafts = createStore({
  context: { drafts: {} as Record<string, PublishDraft> },
  on: {
    keep: (context, event: { idUpload: string; draft: PublishDraft }) => ({
      drafts: { ...context.drafts, [event.idUpload]: { ...context.drafts[event.idUpload], ...event.draft } },
    }),
    forget: (context, event: { idUpload: string }) => {
      const { [event.idUpload]: _sent, ...rest } = context.drafts;
      return { drafts: rest };
    },
  },
});

export function draftOf(idUpload: string | undefined): PublishDraft | undefined {
  return idUpload ? publishDrafts.getSnapshot().context.drafts[idUpload] : undefined;
}
