import toast, { type ToasterProps } from 'react-hot-toast';
import { ApiError, errorMessages } from './api';
import * as t from './i18n';
import { errorSummary } from './platform-error';

/**
 * The toaster exactly as SPEC.md section 9 sets it: top-center, dark gray, these durations.
 * react-hot-toast keeps at most 20 toasts itself (its TOAST_LIMIT), which is the spec's limit.
 */
export const toasterProps: ToasterProps = {
  position: 'top-center',
  toastOptions: {
    // pre-line: a platform's own words go on a line of their own under the Ukrainian summary.
    style: { background: '#333', color: '#fff', whiteSpace: 'pre-line' },
    success: { duration: 2000 },
    error: { duration: 4000 },
    blank: { duration: 4000 },
    custom: { duration: 4000 },
    loading: { duration: Infinity },
  },
};

/** One error toast per message the server sent; `fallback` in place of anything else, when given. */
export function toastErrors(error: unknown, fallback?: string): void {
  const messages = error instanceof ApiError || !fallback ? errorMessages(error) : [fallback];
  for (const message of messages) toast.error(errorSummary(message));
}

export const toasts = {
  // What failed sign-ins said is over once one succeeds: their toasts go with it.
  authorized: () => {
    toast.dismiss();
    toast.success(t.toast.authorized);
  },
  // One id, so the success toast replaces the loading one.
  loggingOut: () => toast.loading(t.toast.loading, { id: 'logout' }),
  loggedOut: () => toast.success(t.toast.loggedOut, { id: 'logout' }),
  errors: toastErrors,
};
