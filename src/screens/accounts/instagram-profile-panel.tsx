import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { superstructResolver } from '@hookform/resolvers/superstruct';
import type { AccountDetail } from '../../lib/contract';
import * as t from '../../lib/i18n';
import { instagramProfileSchema, type InstagramProfileForm } from '../../lib/schemas';
import { Button } from '../../components/button';
import { Card } from '../../components/page';
import { useResource } from '../../components/use-resource';
import { TextAreaField } from '../../components/text-area-field';
import { TextField } from '../../components/text-field';
import { useFocusFirstError } from '../../components/use-focus-first-error';
import styles from './account-screens.module.css';

/**
 * The Instagram profile's name and description; saving needs at least one of them, so typing in
 * either field re-checks both.
 */
export function InstagramProfilePanel({ account, onSaved }: { account: AccountDetail; onSaved: () => void }) {
  const values = useMemo(
    () => ({ profileName: account.profileNameInstagram, profileDescription: account.profileDescriptionInstagram }),
    [account.profileNameInstagram, account.profileDescriptionInstagram],
  );
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<InstagramProfileForm>({ resolver: superstructResolver(instagramProfileSchema), values, shouldFocusError: false });

  const panel = useResource('profile-inst-panel', null, { onSaved });
  const save = (form: InstagramProfileForm) =>
    panel.save({ method: 'PATCH', path: `/accounts/update-profile-inst/${account.id}`, body: form, successText: t.accounts.updated });

  const onSubmit = useFocusFirstError(handleSubmit(save));

  return (
    <Card>
      <form noValidate onSubmit={onSubmit}>
        <div className={styles.panelHeader}>
          <h2 className={styles.panelTitle}>{t.accountForm.instagramPanel}</h2>
          {account.urlInstagram && (
            <a href={account.urlInstagram} target="_blank" rel="noreferrer">
              {t.accountForm.instagramLink}
            </a>
          )}
        </div>
        <TextField
          label={t.accountForm.profileName}
          autoComplete="off"
          error={errors.profileName?.message}
          {...register('profileName', { deps: 'profileDescription' })}
        />
        <TextAreaField
          label={t.accountForm.profileDescription}
          error={errors.profileDescription?.message}
          {...register('profileDescription', { deps: 'profileName' })}
        />
        <Button type="submit" disabled={panel.saving}>
          {t.app.save}
        </Button>
      </form>
    </Card>
  );
}
