import crypto from 'node:crypto';
import { accountLabel } from '../account-label';

export interface FacebookPage {
  /** Numeric, as Meta's Page ids are. */
  id: string;
  name: string;
  /** The Page's address name: its link is https://www.facebook.com/<username>. */
  username: string;
  /** What the person may do on the Page, as /me/accounts answers `tasks`. */
  tasks: string[];
}

/**
 * The Pages a sandbox person manages, fixed by the person's login: the first with the tasks of a
 * Page's full admin (CREATE_CONTENT among them), the second with ANALYZE alone, so an app can tell
 * the Pages it may post to from those it may only read.
 */
export function facebookPagesOf(person: string): FacebookPage[] {
  const label = accountLabel(person);
  const slug = label.toLowerCase().replace(/[^a-z0-9.]/g, '_');
  return [1, 2].map((number) => {
    const digest = crypto.createHash('sha256').update(`fb-page:${person}:${number}`).digest('hex');
    return {
      id: `1${(BigInt(`0x${digest}`) % 10n ** 14n).toString().padStart(14, '0')}`,
      name: `Сторінка ${label} ${number}`,
      username: `${slug}-page-${number}`,
      tasks: number === 1 ? ['ADVERTISE', 'ANALYZE', 'CREATE_CONTENT', 'MESSAGING', 'MODERATE', 'MANAGE'] : ['ANALYZE'],
    };
  });
}
