import { useParams } from 'wouter';
import { Controller, useForm } from 'react-hook-form';
import { superstructResolver } from '@hookform/resolvers/superstruct';
import type { AccountGroup, SelectOption } from '../../lib/contract';
import { t } from '../../lib/i18n';
import { groupSchema, type GroupForm } from '../../lib/schemas';
import { Button } from '../../components/button';
import { RecordGate } from '../../components/load-error';
import { MultiSelect } from '../../components/multi-select';
import { Card, Page } from '../../components/page';
import { TextField } from '../../components/text-field';
import { useRecordForm, useResource } from '../../components/use-resource';
import styles from './group-form-screen.module.css';

const newGroup: GroupForm = { name: '', accounts: [] };

interface GroupFormCardProps {
  group: AccountGroup | undefined;
  saving: boolean;
  onSubmit: (form: GroupForm) => void;
}

function GroupFormCard({ group, saving, onSubmit }: GroupFormCardProps) {
  const options = useResource<SelectOption[]>('group-profile-options', `/accounts/search?groupId=${group?.id ?? 0}`);
  const {
    register,
    control,
    handleSubmit,
    formState: { errors },
  } = useForm<GroupForm>({
    resolver: superstructResolver(groupSchema),
    defaultValues: group ? { name: group.name, accounts: group.accounts } : newGroup,
  });

  return (
    <form noValidate onSubmit={handleSubmit(onSubmit)} className={styles.form}>
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
        <Button type="submit" disabled={saving}>
          {group ? t.app.save : t.app.create}
        </Button>
      </Card>
    </form>
  );
}

const groupHref = (saved: { id: number }) => `/accounts/group/${saved.id}`;

export function GroupFormScreen() {
  const { id } = useParams<{ id?: string }>();
  const form = useRecordForm<AccountGroup>('group-form', '/accounts-group', id, { created: t.groups.created, updated: t.groups.updated }, groupHref);
  const group = form.data;
  return (
    <RecordGate error={form.error} errorTitle={t.groups.editTitle(`#${id}`)} waiting={Boolean(id) && !group}>
      <Page title={group ? t.groups.editTitle(group.name) : t.groups.createTitle}>
        <GroupFormCard key={group?.id ?? 'new'} group={group} saving={form.saving} onSubmit={form.submit} />
      </Page>
    </RecordGate>
  );
}
