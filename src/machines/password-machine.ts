import toast from 'react-hot-toast';
import { assertEvent, fromPromise, setup } from 'xstate';
import { api } from '../lib/api';
import * as t from '../lib/i18n';
import type { PasswordChangeForm } from '../lib/schemas';
import { toastErrors } from '../lib/toasts';

export type PasswordEvent = { type: 'submit'; form: PasswordChangeForm };

/**
 * The operator's own new password (Settings). The server keeps the session the change is made in
 * and ends the others, so the auth machine's tokens stay as they are. `changed` tells the screen
 * to empty the form.
 */
export const passwordMachine = setup({
  types: { events: {} as PasswordEvent },
  actors: {
    changePassword: fromPromise<void, PasswordChangeForm>(({ input }) => api('POST', '/auth/password', input)),
  },
  actions: {
    'toast changed': () => {
      toast.success(t.settings.passwordChanged);
    },
    'toast failure': (_, params: { error: unknown }) => toastErrors(params.error),
  },
}).createMachine({
  id: 'password',
  initial: 'editing',
  states: {
    editing: { on: { submit: 'saving' } },
    saving: {
      invoke: {
        id: 'changePassword',
        src: 'changePassword',
        input: ({ event }) => {
          assertEvent(event, 'submit');
          return event.form;
        },
        onDone: { target: 'changed', actions: 'toast changed' },
        onError: { target: 'editing', actions: { type: 'toast failure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    changed: { on: { submit: 'saving' } },
  },
});
