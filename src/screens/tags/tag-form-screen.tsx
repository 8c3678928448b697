import { useLocation, useParams } from 'wouter';
import { Controller, useForm } from 'react-hook-form';
import { superstructResolver } from '@hookform/resolvers/superstruct';
import toast from 'react-hot-toast';
import { api } from '../../lib/api';
import type { TagSet } from '../../lib/contract';
import { t } from '../../lib/i18n';
import { tagSetSchema, type TagSetForm } from '../../lib/schemas';
import { toastErrors } from '../../lib/toasts';
import { useApi } from '../../lib/use-api';
import { Button } from '../../components/button';
import { LoadError } from '../../components/load-error';
import { Card, Page } from '../../components/page';
import { Spinner } from '../../components/spinner';
import { TagInput } from '../../components/tag-input';
import { TextField } from '../../components/text-field';
import styles from './tag-screens.module.css';

const newTagSet: TagSetForm = { name: '', tags: [] };

function TagSetFormCard({ tagSet, onSaved }: { tagSet: TagSet | undefined; onSaved: (tagSet: TagSet) => void }) {
  const {
    register,
    control,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<TagSetForm>({
    resolver: superstructResolver(tagSetSchema),
    defaultValues: tagSet ? { name: tagSet.name, tags: tagSet.tags } : newTagSet,
  });

  const save = async (form: TagSetForm) => {
    try {
      const saved = tagSet ? await api<TagSet>('PATCH', `/tags/${tagSet.id}`, form) : await api<TagSet>('POST', '/tags', form);
      toast.success(tagSet ? t.tagSets.updated : t.tagSets.created);
      onSaved(saved);
    } catch (error) {
      toastErrors(error);
    }
  };

  return (
    <form noValidate onSubmit={handleSubmit(save)} className={styles.form}>
      <Card>
        <TextField label={t.tagSets.name} autoComplete="off" error={errors.name?.message} {...register('name')} />
        <Controller
          control={control}
          name="tags"
          render={({ field, fieldState }) => (
            <TagInput label={t.tagSets.tags} value={field.value} onChange={field.onChange} error={fieldState.error?.message} />
          )}
        />
        <Button type="submit" disabled={isSubmitting}>
          {tagSet ? t.app.save : t.app.create}
        </Button>
      </Card>
    </form>
  );
}

export function TagFormScreen() {
  const { id } = useParams<{ id?: string }>();
  const [, navigate] = useLocation();
  const { data: tagSet, error, reload } = useApi<TagSet>(id ? `/tags/${id}` : null);

  if (error) {
    return (
      <Page title={t.tagSets.editTitle(`#${id}`)}>
        <LoadError error={error} />
      </Page>
    );
  }
  if (id && !tagSet) return <Spinner />;
  return (
    <Page title={tagSet ? t.tagSets.editTitle(tagSet.name) : t.tagSets.createTitle}>
      <TagSetFormCard key={tagSet?.id ?? 'new'} tagSet={tagSet} onSaved={(saved) => (tagSet ? reload() : navigate(`/tags/${saved.id}`))} />
    </Page>
  );
}
