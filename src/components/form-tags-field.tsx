import { Controller, type Control, type FieldPathByValue, type FieldValues } from 'react-hook-form';
import type { TagSet } from '../lib/contract';
import * as t from '../lib/i18n';
import { TagInput } from './tag-input';
import { TagSetPicker } from './tag-set-picker';

interface FormTagsFieldProps<Form extends FieldValues> {
  control: Control<Form>;
  /** A field holding the tags as a list. */
  name: FieldPathByValue<Form, string[]>;
  tagSets: Pick<TagSet, 'id' | 'name' | 'tags'>[];
  /** Adds a picked set's tags to the field's. */
  onPick: (tagSet: Pick<TagSet, 'id' | 'name' | 'tags'>) => void;
  disabled?: boolean;
}

/** A publication's tags in a form, with the operator's tag sets to add from: the publish form's and the set page's. */
export function FormTagsField<Form extends FieldValues>({ control, name, tagSets, onPick, disabled }: FormTagsFieldProps<Form>) {
  return (
    <>
      <Controller
        control={control}
        name={name}
        render={({ field, fieldState }) => (
          <TagInput label={t.publish.tags} value={field.value} onChange={field.onChange} error={fieldState.error?.message} />
        )}
      />
      <TagSetPicker label={t.publish.tagSets} items={tagSets} disabled={disabled} onPick={onPick} />
    </>
  );
}
