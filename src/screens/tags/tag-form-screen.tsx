import { useParams } from 'wouter';
import { Controller } from 'react-hook-form';
import type { TagSet } from '../../lib/contract';
import * as t from '../../lib/i18n';
import { tagSetSchema, type TagSetForm } from '../../lib/schemas';
import { RecordFormFrame, type RecordFormProps } from '../../components/record-form';
import { RecordGate } from '../../components/load-error';
import { Page } from '../../components/page';
import { TagInput } from '../../components/tag-input';
import { TextField } from '../../components/text-field';
import { useSchemaForm } from '../../components/use-schema-form';
import { useRecordForm } from '../../components/use-resource';
import styles from './tag-screens.module.css';

function TagSetFormCard({ record: tagSet, saving, onSubmit }: RecordFormProps<TagSet, TagSetForm>) {
  const { register, control, handleSubmit, errors } = useSchemaForm(tagSetSchema, { name: tagSet?.name ?? '', tags: tagSet?.tags ?? [] });

  return (
    <RecordFormFrame isNew={!tagSet} saving={saving} onSubmit={handleSubmit(onSubmit)} className={styles.form}>
      <TextField label={t.tagSets.name} autoComplete="off" error={errors.name?.message} {...register('name')} />
      <Controller
        control={control}
        name="tags"
        render={({ field, fieldState }) => (
          <TagInput label={t.tagSets.tags} value={field.value} onChange={field.onChange} error={fieldState.error?.message} />
        )}
      />
    </RecordFormFrame>
  );
}

const tagSetHref = (saved: { id: number }) => `/tags/${saved.id}`;

export function TagFormScreen() {
  const { id } = useParams<{ id?: string }>();
  const form = useRecordForm<TagSet>('tag-form', '/tags', id, { created: t.tagSets.created, updated: t.tagSets.updated }, tagSetHref);
  const tagSet = form.data;
  return (
    <RecordGate error={form.error} errorTitle={t.tagSets.editTitle(`#${id}`)} waiting={Boolean(id) && !tagSet}>
      <Page title={tagSet ? t.tagSets.editTitle(tagSet.name) : t.tagSets.createTitle}>
        <TagSetFormCard key={tagSet?.id ?? 'new'} record={tagSet} saving={form.saving} onSubmit={form.submit} />
      </Page>
    </RecordGate>
  );
}
