import { useState, type MouseEvent } from 'react';
import { Trash2 } from 'lucide-react';
import * as t from '../lib/i18n';
import { Button } from './button';
import { ConfirmDialog } from './confirm-dialog';

interface DeleteButtonProps {
  /** The icon's name, naming the row: 'Видалити профіль #3'. */
  label: string;
  /** What goes with the row, or what stays, shown before anything is deleted. */
  consequence: string;
  onDelete: () => void;
  /** A look of its own (an image tile's corner button) instead of the rows' ghost icon. */
  className?: string;
  /** Words beside the icon, for a page's own delete rather than a row's. */
  text?: string;
}

/** The delete icon of a list row (or a page's delete button): it asks first, and does not open the row it sits in. */
export function DeleteButton({ label, consequence, onDelete, className, text }: DeleteButtonProps) {
  const [asking, setAsking] = useState(false);
  const trigger = {
    'aria-label': label,
    title: label,
    onClick: (event: MouseEvent) => {
      event.stopPropagation();
      setAsking(true);
    },
    children: (
      <>
        <Trash2 size={16} aria-hidden />
        {text}
      </>
    ),
  };
  return (
    <>
      {className ? (
        <button type="button" className={className} {...trigger} />
      ) : (
        <Button variant={text ? 'secondary' : 'ghost'} {...trigger} />
      )}
      {asking && (
        <ConfirmDialog
          question={t.confirm.question(label)}
          consequence={consequence}
          action={t.app.delete}
          onCancel={() => setAsking(false)}
          onConfirm={() => {
            setAsking(false);
            onDelete();
          }}
        />
      )}
    </>
  );
}
