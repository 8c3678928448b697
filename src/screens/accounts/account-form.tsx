import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { superstructResolver } from '@hookform/resolvers/superstruct';
import type { AccountFields, PlatformConnection, SavedSecrets, SecretField } from '../../lib/contract';
import { t } from '../../lib/i18n';
import { accountSchemaFor, emptyAccountForm, type AccountForm } from '../../lib/schemas';
import { Button } from '../../components/button';
import { CopyLinkButton } from './copy-link-button';
import { ConnectPlatform } from './connect-button';
import { Card } from '../../components/page';
import { TextField } from '../../components/text-field';
import { useLeavePrompt } from '../../components/use-leave-prompt';
import { Toggle } from '../../components/toggle';
import { useFocusFirstError } from '../../components/use-focus-first-error';
import styles from './account-screens.module.css';

/** Just the form's fields of a profile, so nothing else travels back in the PATCH. */
export function accountFormOf(account: AccountFields): AccountForm {
  return Object.fromEntries(Object.keys(emptyAccountForm).map((key) => [key, account[key as keyof AccountFields]])) as AccountForm;
}

export const accountTexts = { created: t.accounts.created, updated: t.accounts.updated };
export const accountHref = (saved: { id: number }) => `/accounts/${saved.id}`;

interface AccountFormCardProps {
  initial: AccountForm;
  submitLabel: string;
  saving: boolean;
  onSubmit: (values: AccountForm) => void;
  /** A saved profile, which can hand out its YouTube authorization link. */
  accountId?: number;
  /** The secrets a saved profile stores: their fields stay blank, say "збережено", and keep the value unless retyped. */
  saved?: SavedSecrets;
  /** A saved profile's links to TikTok and Instagram: a linked platform needs nothing typed. */
  connections?: PlatformConnection[];
}

/** Proxy, IP version, comment, and per platform a switch that reveals that platform's credentials. */
export function AccountFormCard({ initial, submitLabel, saving, onSubmit, accountId, saved, connections }: AccountFormCardProps) {
  // The server's rule (server/services/account-views.ts linkedPlatformsOf): a link made through the consent page, even a revoked one.
  const linked = useMemo(
    () => Object.fromEntries((connections ?? []).filter((item) => item.method === 'oauth').map((item) => [item.platform, true])),
    [connections],
  );
  const schema = useMemo(() => accountSchemaFor(saved ?? {}, linked), [saved, linked]);
  const connectionOf = (platform: PlatformConnection['platform']) => connections?.find((item) => item.platform === platform);
  const {
    register,
    handleSubmit,
    watch,
    formState: { errors, isDirty },
  } = useForm<AccountForm>({ resolver: superstructResolver(schema), values: initial, shouldFocusError: false });
  useLeavePrompt(isDirty && !saving);
  const submitForm = useFocusFirstError(handleSubmit(onSubmit));
  const [youtube, instagram, tiktok] = watch(['isActiveYouTube', 'isActiveInstagram', 'isActiveTikTok']);
  const plainField = (field: 'YouTubeAuthClientId' | 'YouTubeLogin' | 'InstagramLogin' | 'InstagramUserId', label: string) => (
    <TextField label={label} autoComplete="off" error={errors[field]?.message} {...register(field)} />
  );
  // Secrets stay hidden while typed, browsers do not offer saved logins for them, and a stored one says "збережено".
  const secretField = (field: SecretField, label: string) => (
    <TextField
      label={label}
      type="password"
      autoComplete="new-password"
      placeholder={saved?.[field] ? t.accountForm.secretSaved : undefined}
      error={errors[field]?.message}
      {...register(field)}
    />
  );

  return (
    <form noValidate onSubmit={submitForm}>
      <Card>
        <TextField
          label={t.accountForm.proxy}
          placeholder={t.accountForm.proxyHint}
          autoComplete="off"
          error={errors.proxy?.message}
          {...register('proxy')}
        />
        {saved?.proxyPassword && <p className={styles.note}>{t.accountForm.proxyPasswordSaved}</p>}
        <fieldset className={styles.group}>
          <legend className={styles.legend}>{t.accountForm.ipVersion}</legend>
          <div className={styles.choices}>
            {(['ipv4', 'ipv6'] as const).map((version) => (
              <label key={version} className={styles.radio}>
                <input type="radio" value={version} {...register('ipVersion')} /> {t.accountForm.ipVersions[version]}
              </label>
            ))}
          </div>
        </fieldset>
        <TextField label={t.accountForm.comments} autoComplete="off" {...register('comments')} />

        <fieldset className={styles.group}>
          <legend className={styles.legend}>{t.accountForm.platforms}</legend>
          <div className={styles.choices}>
            <Toggle label={t.accountForm.youtube} {...register('isActiveYouTube')} />
            <Toggle label={t.accountForm.instagram} {...register('isActiveInstagram')} />
            <Toggle label={t.accountForm.tiktok} {...register('isActiveTikTok')} />
          </div>
        </fieldset>

        {youtube && (
          <section className={styles.platform} aria-label={t.accountForm.youtube}>
            <h3 className={styles.platformTitle}>{t.accountForm.youtube}</h3>
            <div className={styles.pair}>
              {plainField('YouTubeAuthClientId', t.accountForm.clientId)}
              {secretField('YouTubeAuthClientSecret', t.accountForm.clientSecret)}
              {plainField('YouTubeLogin', t.accountForm.youtubeLogin)}
              {secretField('YouTubePassword', t.accountForm.youtubePassword)}
            </div>
            {accountId !== undefined && <CopyLinkButton accountId={accountId} />}
          </section>
        )}

        {instagram && (
          <section className={styles.platform} aria-label={t.accountForm.instagram}>
            <h3 className={styles.platformTitle}>{t.accountForm.instagram}</h3>
            {accountId !== undefined && (
              <ConnectPlatform accountId={accountId} platform="instagram" connection={connectionOf('instagram')} />
            )}
            <div className={styles.pair}>
              {plainField('InstagramLogin', t.accountForm.instagramLogin)}
              {secretField('InstagramPassword', t.accountForm.instagramPassword)}
            </div>
            <div className={styles.pair}>
              {secretField('InstagramAccessToken', t.accountForm.instagramAccessToken)}
              {plainField('InstagramUserId', t.accountForm.instagramUserId)}
            </div>
          </section>
        )}

        {tiktok && (
          <section className={styles.platform} aria-label={t.accountForm.tiktok}>
            <h3 className={styles.platformTitle}>{t.accountForm.tiktok}</h3>
            {accountId !== undefined && <ConnectPlatform accountId={accountId} platform="tiktok" connection={connectionOf('tiktok')} />}
            {secretField('TikTiokAuthStr', t.accountForm.tiktokAuthStr)}
          </section>
        )}

        <div className={styles.formActions}>
          <Button type="submit" disabled={saving}>
            {submitLabel}
          </Button>
        </div>
      </Card>
    </form>
  );
}
