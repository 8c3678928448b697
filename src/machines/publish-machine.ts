import { assign, fromPromise, setup } from 'xstate';
import toast from 'react-hot-toast';
import { api, ApiError } from '../lib/api';
import type {
  AccountGroup,
  PublicationRequestDetail,
  PublishPayload,
  PublishVideoItem,
  SelectOption,
  SpreadPayload,
  SpreadProposal,
} from '../lib/contract';
import { kyivWallTime } from '../lib/kyiv-time';
import * as t from '../lib/i18n';
import { assignmentPreview, platformGaps, tickedPlatforms } from '../lib/assignment';
import type { PlatformFieldName } from '../lib/platforms';
import { textProblems } from '../lib/post-texts';
import {
  assignmentErrors,
  assignProfilesInOrder,
  publishPayloadOf,
  commonText,
  publishVideosOf,
  sentTexts,
  videoNumbers,
  worstValuesOf,
  withProfiles,
  type AssignmentErrors,
} from '../lib/publishing';
import type { PublishFields, SpreadForm } from '../lib/schemas';
import { toastErrors } from '../lib/toasts';
import { publishDrafts, videosFromDraft, type PublishDraft } from './publish-draft-store';

export interface PublishInput {
  /** The request's idUpload from the route; absent when the route has none. */
  idUpload: string | undefined;
  /** Where the form's draft is kept (see draftKeyOf); none keeps no draft. */
  draftKey?: string;
  /** What the operator had assigned when they left this form last time. */
  draft?: PublishDraft;
}

export interface PublishContext {
  idUpload: string | undefined;
  detail: PublicationRequestDetail | null;
  /** The chosen profiles, in the order chosen: video i gets profile i. */
  accounts: SelectOption[];
  /** The videos still to publish, each with its own profile (null: 'Будь-який') and date. */
  videos: PublishVideoItem[];
  /** The spec's messages for `accounts` and `videos`, shown once a submit was tried. */
  errors: AssignmentErrors;
  submitted: boolean;
  draftKey: string | undefined;
  draft: PublishDraft | undefined;
  /** The last proposal of 'Розподілити': why each video got its date (until its date is changed by hand), and what did not fit. */
  spread: SpreadNotes | null;
  /** Issue 43.5: the possible duplicates the server named when it refused the last submit; empty when none. */
  duplicates: string[];
  /** The operator's 'Все одно зберегти' for those duplicates: the next submit asks the server to save them. */
  allowDuplicates: boolean;
}

/** The form's words, sent with a spread so the proposal shows each post's final words (issue 43.2). */
export type SpreadWords = Pick<SpreadPayload, 'title' | 'description' | 'tags' | 'texts'>;

export interface SpreadNotes {
  reasons: Record<number, string>;
  /** Each placed video's posts whose final words are not the set's. */
  posts: Record<number, NonNullable<SpreadProposal['data'][number]['posts']>>;
  unplaced: SpreadProposal['unplaced'];
  /** Each profile's count of posts per day, as proposed; emptied once a date or a profile is changed by hand. */
  days: NonNullable<SpreadProposal['days']>;
}

/** The platforms ticked in the form, which the spread plans for. */
export type TickedPlatforms = Pick<PublishFields, PlatformFieldName<'ticked'>>;

export type PublishEvent =
  | { type: 'profiles.choose'; profiles: SelectOption[] }
  | { type: 'group.pick'; group: AccountGroup }
  | { type: 'video.profile'; videoId: number; profileId: number | null }
  | { type: 'video.date'; videoId: number; date: string }
  | { type: 'video.remove'; videoId: number }
  /** 'Розподілити': the product proposes each video's profile and date between two Kyiv days. */
  | { type: 'spread.propose'; range: SpreadForm; platforms: TickedPlatforms; words?: SpreadWords }
  /** The form's own fields passed their checks. */
  | { type: 'form.submit'; fields: PublishFields }
  /** The form's own fields failed their checks: the assignment's messages show beside theirs. */
  | { type: 'form.invalid' }
  /** Confirmed: the request goes, with its videos (DELETE /api/create-video/{id}). */
  | { type: 'request.delete' }
  /** 'Все одно зберегти' ticked or unticked, once the server named possible duplicates. */
  | { type: 'duplicates.allow'; allow: boolean };

const requestPath = (idUpload: string) => encodeURIComponent(idUpload);

/** One loading toast per request, so the success toast replaces it and a failure dismisses it. */
const sendingToastId = (idUpload: string | undefined) => `publish-${idUpload}`;
const deletingToastId = (idUpload: string | undefined) => `delete-${idUpload}`;

const changeVideo = (videos: PublishVideoItem[], videoId: number, change: Partial<PublishVideoItem>) =>
  videos.map((video) => (video.id === videoId ? { ...video, ...change } : video));

/** The first thing a ticked platform refuses in the words it would get (src/lib/post-texts.ts), as the server will check them. */
function textsError(context: PublishContext, fields: PublishFields): string | undefined {
  return textProblems(
    commonText(fields),
    sentTexts(fields),
    tickedPlatforms(fields),
    worstValuesOf(context.accounts, context.videos, context.detail),
  )[0]?.message;
}

/**
 * The assignment's messages, and what the server would refuse for the ticked platforms: no
 * platform at all, texts a platform refuses, or a video whose profile has none of them (a
 * partial gap is only a warning).
 */
function submissionErrors(context: PublishContext, fields: PublishFields): AssignmentErrors {
  const assignment = assignmentErrors(context.accounts, context.videos);
  if (tickedPlatforms(fields).length === 0) return { ...assignment, platforms: t.postTruth.noPlatformTicked };
  const texts = textsError(context, fields);
  const errors = texts ? { ...assignment, texts } : assignment;
  const platformsOf = new Map((context.detail?.accounts ?? []).map((profile) => [profile.id, profile.platforms]));
  const numbers = videoNumbers(context.detail?.video ?? []);
  const refused = platformGaps(assignmentPreview(context.videos, context.accounts).videos, fields, platformsOf, numbers).find(
    (gap) => gap.refused,
  );
  return refused && !errors.video ? { ...errors, video: refused.message } : errors;
}

/**
 * The publish form of a finished creation request. The machine owns what the form assigns: the
 * chosen profiles (one by one or a group at a time), the videos with their own profile and date,
 * their removal, whether that assignment is valid, and the submission. The i-th rule is its
 * transition: choosing profiles gives video i the i-th of them, again on every change of the choice,
 * except a video whose profile was picked by hand, which keeps it while it stays chosen. The
 * request can be deleted from here too, published or not (the server's final-delete rules apply).
 */
export const publishMachine = setup({
  types: {
    context: {} as PublishContext,
    events: {} as PublishEvent,
    input: {} as PublishInput,
  },
  actors: {
    loadRequest: fromPromise<PublicationRequestDetail, { idUpload: string }>(({ input }) =>
      api('GET', `/create-video/request/${requestPath(input.idUpload)}`),
    ),
    publish: fromPromise<unknown, { idUpload: string; payload: PublishPayload }>(({ input }) =>
      api('POST', `/upload-video/${requestPath(input.idUpload)}`, input.payload),
    ),
    deleteRequest: fromPromise<unknown, { id: number }>(({ input }) => api('DELETE', `/create-video/${input.id}`)),
    spread: fromPromise<SpreadProposal, { idUpload: string; payload: SpreadPayload }>(({ input }) =>
      api('POST', `/upload-video/${requestPath(input.idUpload)}/spread`, input.payload),
    ),
  },
  actions: {
    // Provided by the screen: it owns the router.
    'leave to request list': () => {},
    'choose profiles': assign(({ context }, params: { profiles: SelectOption[] }) => ({
      accounts: params.profiles,
      videos: assignProfilesInOrder(context.videos, params.profiles),
    })),
    'check assignment': assign({ errors: ({ context }) => assignmentErrors(context.accounts, context.videos) }),
    'check submission': assign({
      errors: ({ context }, params: { fields: PublishFields }) => submissionErrors(context, params.fields),
    }),
    'mark submitted': assign({ submitted: true }),
    'keep draft': ({ context }) => {
      if (context.draftKey)
        publishDrafts.trigger.keep({ key: context.draftKey, draft: { accounts: context.accounts, videos: context.videos } });
    },
    'forget draft': ({ context }) => {
      if (context.draftKey) publishDrafts.trigger.forget({ key: context.draftKey });
    },
    'toast sending': ({ context }) => {
      toast.loading(t.publish.sent, { id: sendingToastId(context.idUpload) });
    },
    'toast sent': ({ context }) => {
      toast.success(t.publish.sent, { id: sendingToastId(context.idUpload) });
    },
    'toast failure': ({ context }, params: { error: unknown }) => {
      toast.dismiss(sendingToastId(context.idUpload));
      toastErrors(params.error);
    },
    'toast load failure': (_, params: { error: unknown }) => toastErrors(params.error),
    'apply spread': assign(({ context }, params: { proposal: SpreadProposal }) => {
      const placed = new Map(params.proposal.data.map((item) => [item.videoId, item]));
      const offered = [...context.accounts, ...(context.detail?.accounts ?? [])];
      return {
        videos: context.videos.map((video) => {
          const item = placed.get(video.id);
          const account = item && offered.find((profile) => profile.id === item.accountId);
          if (!item || !account) return video;
          const own = { id: account.id, title: account.title, value: account.value };
          // The date as the form holds it: Kyiv wall time to the minute.
          // Its profile is the rule's (or the one picked by hand): a later change of the chosen profiles still moves it as before.
          return { ...video, account: own, lostProfile: null, date: kyivWallTime(Date.parse(item.date)) };
        }),
        spread: {
          reasons: Object.fromEntries(params.proposal.data.map((item) => [item.videoId, item.reason])),
          posts: Object.fromEntries(params.proposal.data.flatMap((item) => (item.posts ? [[item.videoId, item.posts]] : []))),
          unplaced: params.proposal.unplaced,
          days: params.proposal.days ?? [],
        },
        duplicates: [],
        allowDuplicates: false,
      };
    }),
    'show duplicates': assign((_, params: { error: unknown }) => ({
      duplicates: (params.error as ApiError).messages.slice(1),
      allowDuplicates: false,
    })),
    'dismiss sending': ({ context }) => {
      toast.dismiss(sendingToastId(context.idUpload));
    },
    'toast spread': (_, params: { proposal: SpreadProposal }) => {
      toast.success(t.spread.proposed(params.proposal.data.length));
    },
    'toast deleting': ({ context }) => {
      toast.loading(t.toast.deleting, { id: deletingToastId(context.idUpload) });
    },
    'toast deleted': ({ context }) => {
      toast.success(t.requests.deleted, { id: deletingToastId(context.idUpload) });
    },
    // A refusal the server words (uploads that could not be stopped) says why, as the lists' deletions do.
    'toast delete failure': ({ context }, params: { error: unknown }) => {
      const { error } = params;
      toast.error(error instanceof ApiError && error.status === 409 ? error.message : t.toast.deleteFailed, {
        id: deletingToastId(context.idUpload),
      });
    },
  },
  guards: {
    'has idUpload': ({ context }) => Boolean(context.idUpload),
    // The server's refusal of possible duplicates starts with the catalog's own line (server/routes/upload-video.ts).
    'refused as duplicates': (_, params: { error: unknown }) =>
      params.error instanceof ApiError && params.error.status === 409 && params.error.messages[0] === t.spread.duplicatesFound,
    'submission is valid': ({ context }, params: { fields: PublishFields }) =>
      Object.keys(submissionErrors(context, params.fields)).length === 0,
  },
}).createMachine({
  id: 'publish',
  context: ({ input }) => ({
    idUpload: input.idUpload,
    detail: null,
    accounts: [],
    videos: [],
    errors: {},
    submitted: false,
    draftKey: input.draftKey,
    draft: input.draft,
    spread: null,
    duplicates: [],
    allowDuplicates: false,
  }),
  initial: 'starting',
  states: {
    starting: {
      always: [{ guard: 'has idUpload', target: 'loading' }, { target: 'failed' }],
    },
    loading: {
      invoke: {
        id: 'loadRequest',
        src: 'loadRequest',
        input: ({ context }) => ({ idUpload: context.idUpload! }),
        onDone: {
          target: 'editing',
          actions: assign({
            detail: ({ event }) => event.output,
            // Profiles deleted since the draft was kept are no longer offered, so no longer chosen.
            accounts: ({ context, event }) =>
              (context.draft?.accounts ?? []).filter((chosen) => event.output.accounts.some((offered) => offered.id === chosen.id)),
            videos: ({ context, event }) => videosFromDraft(publishVideosOf(event.output), context.draft?.videos),
          }),
        },
        onError: { target: 'failed', actions: { type: 'toast load failure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    editing: {
      // Every change of the assignment is kept for the operator's return, until the publication is sent.
      on: {
        'profiles.choose': {
          actions: [{ type: 'choose profiles', params: ({ event }) => ({ profiles: event.profiles }) }, 'check assignment', 'keep draft'],
        },
        'group.pick': {
          actions: [
            {
              type: 'choose profiles',
              params: ({ context, event }) => ({ profiles: withProfiles(context.accounts, event.group.accounts) }),
            },
            'check assignment',
            'keep draft',
          ],
        },
        'video.profile': {
          actions: [
            assign({
              videos: ({ context, event }) =>
                changeVideo(context.videos, event.videoId, {
                  account: context.accounts.find((profile) => profile.id === event.profileId) ?? null,
                  // Picked by hand, it stays through later changes of the chosen profiles.
                  byHand: event.profileId !== null,
                  lostProfile: null,
                }),
              spread: ({ context }) => context.spread && { ...context.spread, days: [] },
            }),
            'keep draft',
          ],
        },
        'video.date': {
          actions: [
            assign({
              videos: ({ context, event }) => changeVideo(context.videos, event.videoId, { date: event.date }),
              // A date changed by hand is no longer the proposal's, nor its reason, its posts' words or its count of the day.
              spread: ({ context, event }) =>
                context.spread && {
                  ...context.spread,
                  reasons: Object.fromEntries(Object.entries(context.spread.reasons).filter(([id]) => Number(id) !== event.videoId)),
                  posts: Object.fromEntries(Object.entries(context.spread.posts).filter(([id]) => Number(id) !== event.videoId)),
                  days: [],
                },
              // The duplicates named were of the dates before: the next submit asks again.
              duplicates: [],
              allowDuplicates: false,
            }),
            'keep draft',
          ],
        },
        'spread.propose': 'spreading',
        'video.remove': {
          actions: [
            assign({ videos: ({ context, event }) => context.videos.filter((video) => video.id !== event.videoId) }),
            'check assignment',
            'keep draft',
          ],
        },
        'form.invalid': { actions: ['mark submitted', 'check assignment'] },
        'form.submit': [
          {
            guard: { type: 'submission is valid', params: ({ event }) => ({ fields: event.fields }) },
            target: 'submitting',
            actions: 'mark submitted',
          },
          { actions: ['mark submitted', { type: 'check submission', params: ({ event }) => ({ fields: event.fields }) }] },
        ],
        'request.delete': 'deleting',
        'duplicates.allow': { actions: assign({ allowDuplicates: ({ event }) => event.allow }) },
      },
    },
    spreading: {
      invoke: {
        id: 'spread',
        src: 'spread',
        input: ({ context, event }) => {
          const { range, platforms, words } = event as Extract<PublishEvent, { type: 'spread.propose' }>;
          return {
            idUpload: context.idUpload!,
            payload: {
              ...range,
              ...platforms,
              ...words,
              accounts: context.accounts.map((profile) => ({ id: profile.id })),
              video: context.videos.map((video) => ({ id: video.id, account: video.account ? { id: video.account.id } : null })),
            },
          };
        },
        onDone: {
          target: 'editing',
          actions: [
            { type: 'apply spread', params: ({ event }) => ({ proposal: event.output }) },
            { type: 'toast spread', params: ({ event }) => ({ proposal: event.output }) },
            'check assignment',
            'keep draft',
          ],
        },
        onError: { target: 'editing', actions: { type: 'toast load failure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    deleting: {
      entry: 'toast deleting',
      invoke: {
        id: 'deleteRequest',
        src: 'deleteRequest',
        input: ({ context }) => ({ id: context.detail!.id }),
        onDone: { target: 'deleted', actions: ['toast deleted', 'forget draft'] },
        onError: { target: 'editing', actions: { type: 'toast delete failure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    deleted: {
      type: 'final',
      entry: 'leave to request list',
    },
    submitting: {
      entry: 'toast sending',
      invoke: {
        id: 'publish',
        src: 'publish',
        input: ({ context, event }) => {
          const { fields } = event as Extract<PublishEvent, { type: 'form.submit' }>;
          const form = { ...fields, accounts: context.accounts, video: context.videos };
          const payload = publishPayloadOf(context.detail!.id, form);
          // Duplicates are checked only when asked (SPEC's publish saves without): until the operator consents.
          return { idUpload: context.idUpload!, payload: context.allowDuplicates ? payload : { ...payload, checkDuplicates: true } };
        },
        onDone: { target: 'done', actions: ['toast sent', 'forget draft'] },
        onError: [
          {
            guard: { type: 'refused as duplicates', params: ({ event }) => ({ error: event.error }) },
            target: 'editing',
            actions: ['dismiss sending', { type: 'show duplicates', params: ({ event }) => ({ error: event.error }) }],
          },
          { target: 'editing', actions: { type: 'toast failure', params: ({ event }) => ({ error: event.error }) } },
        ],
      },
    },
    done: {
      type: 'final',
      entry: 'leave to request list',
    },
    failed: {
      type: 'final',
      entry: 'leave to request list',
    },
  },
});
