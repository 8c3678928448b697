import type { FormEvent, ReactNode } from 'react';
import * as t from '../lib/i18n';
import { Button } from './button';
import { Card } from './page';
import { useFocusFirstError } from './use-focus-first-error';

/** What a record's form card gets from its screen: the record (none for a new one), whether it is being saved, and where to send it. */
export interface RecordFormProps<Record, Form> {
  record: Record | undefined;
  saving: boolean;
  onSubmit: (form: Form) => void;
}

interface RecordFormFrameProps {
  isNew: boolean;
  saving: boolean;
  onSubmit: (event: FormEvent<HTMLFormElement>) => Promise<void>;
  className?: string;
  children: ReactNode;
}

/** A record's form in a card, ending with 'Створити' for a new record and 'Зберегти' for one that exists. */
export function RecordFormFrame({ isNew, saving, onSubmit, className, children }: RecordFormFrameProps) {
  const submitForm = useFocusFirstError(onSubmit);
  return (
    <form noValidate onSubmit={submitForm} className={className}>
      <Card>
        {children}
        <Button type="submit" disabled={saving}>
          {isNew ? t.app.create : t.app.save}
        </Button>
      </Card>
    </form>
  );
}
