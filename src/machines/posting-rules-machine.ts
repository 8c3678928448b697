import { assign, fromPromise, setup } from 'xstate';
import toast from 'react-hot-toast';
import { api, errorMessages } from '../lib/api';
import type { PostOptions, ProfilePostingRules } from '../lib/contract';
import * as t from '../lib/i18n';

interface PostingRulesContext {
  accountIds: number[];
  rules: ProfilePostingRules[];
  error: string | null;
}

type PostingRulesEvent =
  /** The publish form's chosen profiles changed: their rules are read again. */
  | { type: 'profiles.changed'; accountIds: number[] }
  /** The operator asked to remember the current choices for every chosen profile. */
  | { type: 'defaults.save'; options: PostOptions };

const loadRules = fromPromise(async ({ input }: { input: number[] }) =>
  input.length === 0 ? [] : (await api<{ data: ProfilePostingRules[] }>('GET', `/posting-rules?accountIds=${input.join(',')}`)).data,
);

const saveDefaults = fromPromise(async ({ input }: { input: { accountIds: number[]; options: PostOptions } }) =>
  Promise.all(
    input.accountIds.map(async (id) => (await api<{ data: ProfilePostingRules }>('PUT', `/posting-rules/${id}`, input.options)).data),
  ),
);

/**
 * What each platform allows the publish form's chosen profiles (TikTok's creator_info through the
 * profile's proxy) and their remembered choices; the per-platform panel renders it.
 */
export const postingRulesMachine = setup({
  types: { context: {} as PostingRulesContext, events: {} as PostingRulesEvent, input: {} as { accountIds: number[] } },
  actors: { loadRules, saveDefaults },
}).createMachine({
  id: 'postingRules',
  context: ({ input }) => ({ accountIds: input.accountIds, rules: [], error: null }),
  initial: 'loading',
  on: {
    'profiles.changed': { target: '.loading', actions: assign({ accountIds: ({ event }) => event.accountIds }) },
  },
  states: {
    loading: {
      invoke: {
        src: 'loadRules',
        input: ({ context }) => context.accountIds,
        onDone: { target: 'ready', actions: assign({ rules: ({ event }) => event.output, error: null }) },
        onError: { target: 'ready', actions: assign({ error: ({ event }) => errorMessages(event.error).join('; ') }) },
      },
    },
    ready: {
      on: { 'defaults.save': 'saving' },
    },
    saving: {
      invoke: {
        src: 'saveDefaults',
        input: ({ context, event }) => ({
          accountIds: context.accountIds,
          options: (event as Extract<PostingRulesEvent, { type: 'defaults.save' }>).options,
        }),
        onDone: {
          target: 'ready',
          actions: [assign({ rules: ({ event }) => event.output }), () => toast.success(t.postingRules.defaultsSaved)],
        },
        onError: { target: 'ready', actions: ({ event }) => toast.error(errorMessages(event.error).join('; ')) },
      },
    },
  },
});
