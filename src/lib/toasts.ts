import toast, { type ToasterProps } from 'react-hot-toast';
import { errorMessages } from './api';
import { t } from './i18n';

/**
 * The toaster exactly as SPEC.md section 9 sets it: top-center, dark gray, these durations.
 * react-hot-toast keeps at most 20 toasts itself (its TOAST_LIMIT), which is the spec's limit.
 */
export const toasterProps: ToasterProps = {
  position: 'top-center',
  toastOptions: {
    style: { background: '#333', color: '#fff' },
    success: { duration: 2000 },
    error: { duration: 4000 },
    blank: { duration: 4000 },
    custom: { duration: 4000 },
    loading: { duration: Infinity },
  },
};

/** One error toast per message the server sent. */
export function toastErrors(error: unknown): void {
  for (const message of errorMessages(error)) toast.error(message);
}

export const toasts = {
  authorized: () => toast.success(t.toast.authorized),
  // One id, so the success toast replaces the loading one.
  loggingOut: () => toast.loading(t.toast.loading, { id: 'logout' }),
  loggedOut: () => toast.success(t.toast.loggedOut, { id: 'logout' }),
  errors: toastErrors,
};
