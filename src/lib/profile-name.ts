import type { AccountSummary } from './contract';

/**
 * What the operator calls a profile: its comment's first line, else an account it is connected as
 * ('' when neither). Pickers put it beside the number, and the profile's page is headed by it.
 */
export function profileName(account: Pick<AccountSummary, 'comments' | 'connectedAs'>): string {
  const { youtube, tiktok, instagram } = account.connectedAs;
  return account.comments.trim().split('\n')[0].trim() || youtube || tiktok || instagram || '';
}
