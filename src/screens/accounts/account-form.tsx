import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useForm, useWatch, type Resolver } from 'react-hook-form';
import { superstructResolver } from '@hookform/resolvers/superstruct';
import { ChevronDown, ChevronRight } from 'lucide-react';
import type {
  AccountBody,
  AccountFields,
  ConsentPlatform,
  PlatformConnection,
  PlatformName,
  ProfileSetup,
  SavedSecrets,
  SecretField,
} from '../../lib/contract';
import * as t from '../../lib/i18n';
import { consentPlatformIds, platforms } from '../../lib/platforms';
import { accountSchemaFor, emptyAccountForm, type AccountForm } from '../../lib/schemas';
import { Button } from '../../components/button';
import { CopyLinkButton } from './copy-link-button';
import { ConnectPlatform } from './connect-button';
import { Card } from '../../components/page';
import { TextField } from '../../components/text-field';
import { useLeavePrompt } from '../../components/use-leave-prompt';
import { useResource } from '../../components/use-resource';
import { Toggle } from '../../components/toggle';
import { useFocusFirstError } from '../../components/use-focus-first-error';
import { useProfileConnect } from './use-profile-connect';
import styles from './account-screens.module.css';

/** Just the form's fields of a profile, so nothing else travels back in the PATCH. */
export function accountFormOf(account: AccountFields): AccountForm {
  return Object.fromEntries(Object.keys(emptyAccountForm).map((key) => [key, account[key as keyof AccountFields]])) as AccountForm;
}

interface AccountFormCardProps {
  initial: AccountForm;
  submitLabel: string;
  saving: boolean;
  onSubmit: (body: AccountBody) => void;
  /** A saved profile, which can hand out its consent links. */
  accountId?: number;
  /** The secrets a saved profile stores: their fields stay blank, say "збережено", and keep the value unless retyped. */
  saved?: SavedSecrets;
  /** A saved profile's links to the platforms: a linked platform needs nothing typed. */
  connections?: PlatformConnection[];
  /** A connect saved the form but could not open the consent page: the saved profile is read again. */
  onConnectSaved?: () => void;
}

/** Whether each platform's typed credentials are open; one that takes none (a platform SPEC does not name) connects only by consent. */
type TypedOpen = Partial<Record<ConsentPlatform, boolean>>;

/** The first field of each platform's typed credentials (SPEC's names), which opening them focuses. */
const typedFirstField = { tiktok: 'TikTiokAuthStr', instagram: 'InstagramLogin' } as const satisfies TypedOpenFields;
type TypedOpenFields = Partial<Record<ConsentPlatform, keyof AccountForm>>;

/** Platforms added since SPEC: a switch and a consent page, no typed credentials of SPEC's. */
const addedPlatforms = platforms.filter((platform) => !platform.inSpec);

/**
 * Proxy, IP version, comment, and per platform a switch that reveals how it connects: its consent
 * page ('Підключити …', which saves the form first), and for TikTok and Instagram the typed
 * credentials as the other way, behind their own button.
 */
export function AccountFormCard({
  initial,
  submitLabel,
  saving,
  onSubmit,
  accountId,
  saved,
  connections,
  onConnectSaved,
}: AccountFormCardProps) {
  // The server's rule (server/services/profiles/account-views.ts linkedPlatformsOf): a link made through the consent page, even a revoked one.
  const linked = useMemo(
    () => Object.fromEntries((connections ?? []).filter((item) => item.method === 'oauth').map((item) => [item.platform, true])),
    [connections],
  );
  // The typed way starts open where typed credentials are what the profile has.
  const [typedOpen, setTypedOpen] = useState<TypedOpen>(() => ({
    tiktok: !linked.tiktok && Boolean(saved?.TikTiokAuthStr),
    instagram:
      !linked.instagram &&
      Boolean(saved?.InstagramPassword || saved?.InstagramAccessToken || initial.InstagramLogin || initial.InstagramUserId),
  }));
  // The platform a connect press validates for: it is connected through its consent page even with its typed way open.
  const connectingTo = useRef<PlatformName | null>(null);
  // A platform with no typed way (one SPEC does not name) is always connected by consent: it needs no saying.
  const byConsent = (platform: PlatformName | null) =>
    consentPlatformIds.filter((candidate) => candidate === platform || (candidate in typedFirstField && !typedOpen[candidate]));
  const resolver: Resolver<AccountForm> = (values, context, options) =>
    superstructResolver(accountSchemaFor(saved ?? {}, linked, byConsent(connectingTo.current), connectingTo.current ?? undefined))(
      values,
      context,
      options,
    );
  const {
    register,
    handleSubmit,
    control,
    setValue,
    setFocus,
    formState: { errors, isDirty, isSubmitted },
  } = useForm<AccountForm>({ resolver, values: initial, shouldFocusError: false });
  const { connecting, connect } = useProfileConnect(accountId, onConnectSaved);
  useLeavePrompt(isDirty && !saving && !connecting);
  const submitForm = useFocusFirstError(handleSubmit((values) => onSubmit(bodyOf(values))));
  const setup = useResource<ProfileSetup>('profile-setup', '/accounts/setup').data;
  const [proxy, youtube, instagram, tiktok] = useWatch({
    control,
    name: ['proxy', 'isActiveYouTube', 'isActiveInstagram', 'isActiveTikTok'],
  });
  const switchedOn = useWatch({ control, name: addedPlatforms.map((platform) => platform.fields.switchedOn) });
  const bodyOf = (values: AccountForm, platform: PlatformName | null = null): AccountBody => ({
    ...values,
    connectByConsent: byConsent(platform),
    ...(platform ? { connecting: platform } : {}),
  });
  const connectTo = (platform: PlatformName) => {
    if (accountId !== undefined && !isDirty) return connect(platform, null);
    connectingTo.current = platform;
    // A press with a wrong field goes to it, as a failed save does (useFocusFirstError).
    void handleSubmit(
      (values) => connect(platform, bodyOf(values, platform)),
      (fieldErrors) => setFocus(Object.keys(fieldErrors)[0] as keyof AccountForm),
    )().finally(() => (connectingTo.current = null));
  };
  const connectionOf = (platform: PlatformName) => connections?.find((item) => item.platform === platform);
  const connectRow = (platform: PlatformName) => (
    <ConnectPlatform
      platform={platform}
      connection={connectionOf(platform)}
      isNew={accountId === undefined}
      busy={connecting}
      onConnect={() => connectTo(platform)}
    />
  );

  // Opening a typed way puts the focus in its first field, where the operator pastes.
  const typedFocus = useRef<keyof AccountForm | null>(null);
  useEffect(() => {
    if (typedFocus.current) setFocus(typedFocus.current);
    typedFocus.current = null;
  }, [typedOpen, setFocus]);
  const typedIds = { tiktok: useId(), instagram: useId() };
  const typedToggle = (platform: keyof typeof typedFirstField, label: string) => (
    <Button
      variant="ghost"
      className={styles.typedToggle}
      aria-expanded={typedOpen[platform]}
      aria-controls={typedIds[platform]}
      onClick={() => {
        if (!typedOpen[platform]) typedFocus.current = typedFirstField[platform];
        setTypedOpen((open) => ({ ...open, [platform]: !open[platform] }));
      }}
    >
      {typedOpen[platform] ? <ChevronDown size={16} aria-hidden /> : <ChevronRight size={16} aria-hidden />} {label}
    </Button>
  );

  const sandboxProxy = setup?.mode === 'sandbox' ? setup.sandboxProxy : null;
  const fillSandboxProxy = (proxy: string) => {
    setValue('proxy', proxy, { shouldDirty: true, shouldValidate: isSubmitted });
    setFocus('proxy');
  };
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
          hint={sandboxProxy ? t.accountForm.sandboxProxy(sandboxProxy) : t.accountForm.proxyHint}
          autoComplete="off"
          error={errors.proxy?.message}
          {...register('proxy')}
        />
        {sandboxProxy && proxy !== sandboxProxy && (
          <div className={styles.proxyOffer}>
            <Button variant="secondary" onClick={() => fillSandboxProxy(sandboxProxy)}>
              {t.accountForm.useSandboxProxy}
            </Button>
          </div>
        )}
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
            {addedPlatforms.map((platform) => (
              <Toggle key={platform.id} label={t.platform.names[platform.id]} {...register(platform.fields.switchedOn)} />
            ))}
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
            {connectRow('youtube')}
            {/* For a channel whose owner consents elsewhere. */}
            {accountId !== undefined && <CopyLinkButton accountId={accountId} />}
          </section>
        )}

        {instagram && (
          <section className={styles.platform} aria-label={t.accountForm.instagram}>
            <h3 className={styles.platformTitle}>{t.accountForm.instagram}</h3>
            {connectRow('instagram')}
            {typedToggle('instagram', t.accountForm.typedInstagram)}
            <div id={typedIds.instagram} hidden={!typedOpen.instagram} className={styles.typed}>
              <div className={styles.pair}>
                {plainField('InstagramLogin', t.accountForm.instagramLogin)}
                {secretField('InstagramPassword', t.accountForm.instagramPassword)}
              </div>
              <div className={styles.pair}>
                {secretField('InstagramAccessToken', t.accountForm.instagramAccessToken)}
                {plainField('InstagramUserId', t.accountForm.instagramUserId)}
              </div>
            </div>
          </section>
        )}

        {tiktok && (
          <section className={styles.platform} aria-label={t.accountForm.tiktok}>
            <h3 className={styles.platformTitle}>{t.accountForm.tiktok}</h3>
            {connectRow('tiktok')}
            {typedToggle('tiktok', t.accountForm.typedTikTok)}
            <div id={typedIds.tiktok} hidden={!typedOpen.tiktok} className={styles.typed}>
              {secretField('TikTiokAuthStr', t.accountForm.tiktokAuthStr)}
            </div>
          </section>
        )}

        {addedPlatforms.map(
          (platform, index) =>
            switchedOn[index] && (
              <section key={platform.id} className={styles.platform} aria-label={t.platform.names[platform.id]}>
                <h3 className={styles.platformTitle}>{t.platform.names[platform.id]}</h3>
                {connectRow(platform.id)}
              </section>
            ),
        )}

        <div className={styles.formActions}>
          <Button type="submit" disabled={saving || connecting}>
            {submitLabel}
          </Button>
        </div>
      </Card>
    </form>
  );
}
