import { useLocation, useParams } from 'wouter';
import { Controller, useForm } from 'react-hook-form';
import { superstructResolver } from '@hookform/resolvers/superstruct';
import toast from 'react-hot-toast';
import { api } from '../../lib/api';
import type { AccountGroup, SelectOption } from '../../lib/contract';
import { t } from '../../lib/i18n';
import { groupSchema, type GroupForm } from '../../lib/schemas';
import { toastErrors } from '../../lib/toasts';
import { useApi } from '../../lib/use-api';
import { Button } from '../../components/button';
import { LoadError } from '../../components/load-error';
import { MultiSelect } from '../../components/multi-select';
import { Card, Page } from '../../components/page';
import { Spinner } from '../../components/spinner';
import { TextField } from '../../components/text-field';
import styles from './group-form-screen.module.css';

const newGroup: GroupForm = { name: '', accounts: [] };

function GroupFormCard({ group, onSaved }: { group: AccountGroup | undefined; onSaved: (group: AccountGroup) => void }) {
  const options = useApi<SelectOption[]>(`/accounts/search?groupId=${group?.id ?? 0}`);
  const {
    register,
    control,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<GroupForm>({
    resolver: superstructResolver(groupSchema),
    defaultValues: group ? { name: group.name, accounts: group.accounts } : newGroup,
  });

  const save = async (form: GroupForm) => {
    try {
      const saved = group
        ? await api<AccountGroup>('PATCH', `/accounts-group/${group.id}`, form)
        : await api<AccountGroup>('POST', '/accounts-group', form);
      toast.success(group ? t.groups.updated : t.groups.created);
      onSaved(saved);
    } catch (error) {
      toastErrors(error);
    }
  };

  return (
    <form noValidate onSubmit={handleSubmit(save)} className={styles.form}>
      <Card>
        <TextField label={t.groups.name} autoComplete="off" error={errors.name?.message} {...register('name')} />
        <Controller
          control={control}
          name="accounts"
          render={({ field, fieldState }) => (
            <MultiSelect
              label={t.groups.accounts}
              placeholder={t.groups.accountsPlaceholder}
              options={options.data ?? []}
              value={field.value}
              onChange={field.onChange}
              error={fieldState.error?.message}
            />
          )}
        />
        <Button type="submit" disabled={isSubmitting}>
          {group ? t.app.save : t.app.create}
        </Button>
      </Card>
    </form>
  );
}

export function GroupFormScreen() {
  const { id } = useParams<{ id?: string }>();
  const [, navigate] = useLocation();
  const { data: group, error, reload } = useApi<AccountGroup>(id ? `/accounts-group/${id}` : null);

  if (error) {
    return (
      <Page title={t.groups.editTitle(`#${id}`)}>
        <LoadError error={error} />
      </Page>
    );
  }
  if (id && !group) return <Spinner />;
  return (
    <Page title={group ? t.groups.editTitle(group.name) : t.groups.createTitle}>
      <GroupFormCard
        key={group?.id ?? 'new'}
        group={group}
        onSaved={(saved) => (group ? reload() : navigate(`/accounts/group/${saved.id}`))}
      />
    </Page>
  );
}
