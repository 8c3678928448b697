import { useParams } from 'wouter';
import { Controller, useForm } from 'react-hook-form';
import { superstructResolver } from '@hookform/resolvers/superstruct';
import type { TagSet } from '../../lib/contract';
import { t } from '../../lib/i18n';
import { tagSetSchema, type TagSetForm } from '../../lib/schemas';
import { Button } from '../../components/button';
import { RecordGate } from '../../components/load-error';
import { Card, Page } from '../../components/page';
import { TagInput } from '../../components/tag-input';
import { TextField } from '../../components/text-field';
import { useRecordForm } from '../../components/use-resource';
import styles from './tag-screens.module.css';

const newTagSet: TagSetForm = { name: '', tags: [] };

interface TagSetFormCardProps {
  tagSet: TagSet | undefined;
  saving: boolean;
  onSubmit: (form: TagSetForm) => void;
}

function TagSetFormCard({ tagSet, saving, onSubmit }: TagSetFormCardProps) {
  const {
    register,
    control,
    handleSubmit,
    formState: { errors },
  } = useForm<TagSetForm>({
    resolver: superstructResolver(tagSetSchema),
    defaultValues: tagSet ? { name: tagSet.name, tags: tagSet.tags } : newTagSet,
  });

  return (
    <form noValidate onSubmit={handleSubmit(onSubmit)} className={styles.form}>
      <Card>
        <TextField label={t.tagSets.name} autoComplete="off" error={errors.name?.message} {...register('name')} />
        <Controller
          control={control}
          name="tags"
          render={({ field, fieldState }) => (
            <TagInput label={t.tagSets.tags} value={field.value} onChange={field.onChange} error={fieldState.error?.message} />
          )}
        />
        <Button type="submit" disabled={saving}>
          {tagSet ? t.app.save : t.app.create}
        </Button>
      </Card>
    </form>
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
        <TagSetFormCard key={tagSet?.id ?? 'new'} tagSet={tagSet} saving={form.saving} onSubmit={form.submit} />
      </Page>
    </RecordGate>
  );
}
