import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { superstructResolver } from '@hookform/resolvers/superstruct';
import type { AccountDetail } from '../../lib/contract';
import * as t from '../../lib/i18n';
import { channelDescriptionSchema, type ChannelDescriptionForm } from '../../lib/schemas';
import { Button } from '../../components/button';
import { Card } from '../../components/page';
import { useResource } from '../../components/use-resource';
import { TextAreaField } from '../../components/text-area-field';
import { useFocusFirstError } from '../../components/use-focus-first-error';
import styles from './account-screens.module.css';

/** The YouTube channel's description, kept with the profile for publishing to push to YouTube. */
export function ChannelDescriptionPanel({ account, onSaved }: { account: AccountDetail; onSaved: () => void }) {
  const values = useMemo(() => ({ description: account.description }), [account.description]);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<ChannelDescriptionForm>({ resolver: superstructResolver(channelDescriptionSchema), values, shouldFocusError: false });

  const panel = useResource('channel-panel', null, { onSaved });
  const save = (form: ChannelDescriptionForm) =>
    panel.save({
      method: 'PATCH',
      path: `/accounts/update-channel/${account.id}`,
      body: form,
      successText: t.accountForm.descriptionUpdated,
    });

  const onSubmit = useFocusFirstError(handleSubmit(save));

  return (
    <Card>
      <form noValidate onSubmit={onSubmit}>
        <div className={styles.panelHeader}>
          <h2 className={styles.panelTitle}>{t.accountForm.channelPanel}</h2>
          {account.urlChannel && (
            <a href={account.urlChannel} target="_blank" rel="noreferrer">
              {account.titleChannel || t.accountForm.channelLink}
            </a>
          )}
        </div>
        <TextAreaField label={t.accountForm.channelDescription} error={errors.description?.message} {...register('description')} />
        <Button type="submit" disabled={panel.saving}>
          {t.app.save}
        </Button>
      </form>
    </Card>
  );
}
