import { useEffect, useState, type FormEvent } from 'react';

/**
 * A form's submit handler after which a failed submit takes the keyboard to the form's first wrong
 * field, where that field's message is, instead of leaving it on the submit button at the bottom.
 * The field is the first control marked aria-invalid once the submit's checks have rendered,
 * whoever checked it: the form's schema (react-hook-form's own focusing is off, so there is one
 * rule) or a machine, as the publish form's profiles and platforms are.
 */
export function useFocusFirstError(submit: (event: FormEvent<HTMLFormElement>) => Promise<void> | void) {
  const [submitted, setSubmitted] = useState<{ form: HTMLFormElement } | null>(null);
  useEffect(() => {
    submitted?.form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [submitted]);
  return (event: FormEvent<HTMLFormElement>) => {
    const form = event.currentTarget;
    void Promise.resolve(submit(event)).then(() => setSubmitted({ form }));
  };
}
