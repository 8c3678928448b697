import { useParams } from 'wouter';
import { Controller } from 'react-hook-form';
import type { AccountGroupDetail, SelectOption } from '../../lib/contract';
import * as t from '../../lib/i18n';
import { groupSchema, type GroupForm } from '../../lib/schemas';
import { RecordFormFrame, type RecordFormProps } from '../../components/record-form';
import { RecordGate } from '../../components/load-error';
import { MultiSelect } from '../../components/multi-select';
import { Page } from '../../components/page';
import { PostingSlotsPanel, slotsSourceText } from '../../components/posting-slots-panel';
import { TextField } from '../../components/text-field';
import { useSchemaForm } from '../../components/use-schema-form';
import { useRecordForm, useResource } from '../../components/use-resource';
import styles from './group-form-screen.module.css';

function GroupFormCard({ record: group, saving, onSubmit }: RecordFormProps<AccountGroupDetail, GroupForm>) {
  const options = useResource<SelectOption[]>('group-profile-options', `/accounts/search?groupId=${group?.id ?? 0}`);
  const { register, control, handleSubmit, errors } = useSchemaForm(groupSchema, {
    name: group?.name ?? '',
    accounts: group?.accounts ?? [],
  });

  return (
    <RecordFormFrame isNew={!group} saving={saving} onSubmit={handleSubmit(onSubmit)} className={styles.form}>
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
    </RecordFormFrame>
  );
}

const groupHref = (saved: { id: number }) => `/accounts/group/${saved.id}`;

export function GroupFormScreen() {
  const { id } = useParams<{ id?: string }>();
  const form = useRecordForm<AccountGroupDetail>(
    'group-form',
    '/accounts-group',
    id,
    { created: t.groups.created, updated: t.groups.updated },
    groupHref,
  );
  const group = form.data;
  return (
    <RecordGate error={form.error} errorTitle={t.groups.editTitle(`#${id}`)} waiting={Boolean(id) && !group}>
      <Page title={group ? t.groups.editTitle(group.name) : t.groups.createTitle}>
        <div className={styles.layout}>
          <GroupFormCard key={group?.id ?? 'new'} record={group} saving={form.saving} onSubmit={form.submit} />
          {group && (
            <PostingSlotsPanel
              path={`/accounts-group/${group.id}/slots`}
              slots={group.slots}
              sourceText={slotsSourceText(group.slots, null)}
              own={group.slots.source === 'group'}
              clearLabel={t.postingSlots.clearGroup}
              onSaved={form.reload}
            />
          )}
        </div>
      </Page>
    </RecordGate>
  );
}
