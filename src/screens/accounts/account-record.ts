import * as t from '../../lib/i18n';

/** What a profile's save says, and where a saved profile opens: the form's save and its connect buttons alike. */
export const accountTexts = { created: t.accounts.created, updated: t.accounts.updated };
export const accountHref = (saved: { id: number }) => `/accounts/${saved.id}`;
