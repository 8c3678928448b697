import { Link } from 'wouter';
import * as t from '../lib/i18n';

interface ProfileLinkProps {
  account: { id: number; title?: string } | null;
  /** Profiles the screen already knows by name, for lists whose rows carry only the id. */
  known?: { id: number; title: string }[];
}

/** A link to a video's profile, named as the profile pickers name it; '—' when it has none. */
export function ProfileLink({ account, known = [] }: ProfileLinkProps) {
  if (!account) return <>—</>;
  const title = account.title ?? known.find((profile) => profile.id === account.id)?.title ?? t.accounts.optionTitle(account.id, '');
  return <Link href={`/accounts/${account.id}`}>{title}</Link>;
}
