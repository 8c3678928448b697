import { Trash2 } from 'lucide-react';
import { Button } from './button';

/** The delete icon of a list row; it does not open the row it sits in. */
export function DeleteButton({ label, onDelete }: { label: string; onDelete: () => void }) {
  return (
    <Button
      variant="ghost"
      aria-label={label}
      title={label}
      onClick={(event) => {
        event.stopPropagation();
        onDelete();
      }}
    >
      <Trash2 size={16} aria-hidden />
    </Button>
  );
}
