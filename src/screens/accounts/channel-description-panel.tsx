import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { superstructResolver } from '@hookform/resolvers/superstruct';
import toast from 'react-hot-toast';
import { api } from '../../lib/api';
import type { AccountDetail } from '../../lib/contract';
import { t } from '../../lib/i18n';
import { channelDescriptionSchema, type ChannelDescriptionForm } from '../../lib/schemas';
import { toastErrors } from '../../lib/toasts';
import { Button } from '../../components/button';
import { Card } from '../../components/page';
import { TextAreaField } from '../../components/text-area-field';
import styles from './account-screens.module.css';

/** The YouTube channel's description, kept with the profile for publishing to push to YouTube. */
export function ChannelDescriptionPanel({ account, onSaved }: { account: AccountDetail; onSaved: () => void }) {
  const values = useMemo(() => ({ description: account.description }), [account.description]);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<ChannelDescriptionForm>({ resolver: superstructResolver(channelDescriptionSchema), values });

  const save = async (form: ChannelDescriptionForm) => {
    try {
      await api('PATCH', `/accounts/update-channel/${account.id}`, form);
      toast.success(t.accountForm.descriptionUpdated);
      onSaved();
    } catch (error) {
      toastErrors(error);
    }
  };

  return (
    <Card>
      <form noValidate onSubmit={handleSubmit(save)}>
        <div className={styles.panelHeader}>
          <h2 className={styles.panelTitle}>{t.accountForm.channelPanel}</h2>
          {account.urlChannel && (
            <a href={account.urlChannel} target="_blank" rel="noreferrer">
              {account.titleChannel || t.accountForm.channelLink}
            </a>
          )}
        </div>
        <TextAreaField label={t.accountForm.channelDescription} error={errors.description?.message} {...register('description')} />
        <Button type="submit" disabled={isSubmitting}>
          {t.app.save}
        </Button>
      </form>
    </Card>
  );
}
