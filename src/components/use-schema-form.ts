import { useForm, type DefaultValues, type FieldValues } from 'react-hook-form';
import { superstructResolver } from '@hookform/resolvers/superstruct';
import type { Struct } from 'superstruct';

/** A form checked by its schema (the spec's messages), starting from `defaultValues`; useFocusFirstError focuses its first wrong field. */
export function useSchemaForm<Form extends FieldValues>(schema: Struct<Form, unknown>, defaultValues: DefaultValues<Form>) {
  const form = useForm<Form>({ resolver: superstructResolver(schema), defaultValues, shouldFocusError: false });
  return { ...form, errors: form.formState.errors };
}
