import { Link } from 'wouter';
import { Plus } from 'lucide-react';
import * as t from '../lib/i18n';
import { buttonClass } from './button';

/** The 'Створити' button in a list's header. */
export function CreateLink({ href }: { href: string }) {
  return (
    <Link href={href} className={buttonClass()}>
      <Plus size={16} aria-hidden /> {t.app.create}
    </Link>
  );
}
