import { useEffect, useId, type ReactNode } from 'react';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { PlatformName, PostOptions, ProfilePostingRules, TikTokPostOptions } from '../lib/contract';
import * as t from '../lib/i18n';
import type { TickedPlatforms } from '../lib/assignment';
import { instagramDefaults } from '../lib/posting-rules/instagram';
import { platforms, type PlatformOf } from '../lib/platforms';
import {
  interactionOffByCreator,
  longestTikTokVideo,
  offeredPrivacyLevels,
  tiktokInteractions,
  tiktokInteractionsOff,
} from '../lib/posting-rules/tiktok';
import { youtubeCategories, youtubeDefaults, youtubePrivacyStatuses } from '../lib/posting-rules/youtube';
import { postingRulesMachine } from '../machines/posting-rules-machine';
import { Button } from './button';
import styles from './platform-options-panel.module.css';

type AddedPlatform = Extract<PlatformOf, { inSpec: false }>;

interface PlatformOptionsPanelProps {
  /** The chosen profiles' rules, read by the form too: it checks the choices before it sends them. */
  actor: ActorRefFrom<typeof postingRulesMachine>;
  /** The form's refusal of a choice, by its field (`options.youtube.selfDeclaredMadeForKids`…). */
  errorOf: (field: string) => string | undefined;
  accountIds: number[];
  ticked: TickedPlatforms;
  value: PostOptions;
  onChange: (options: PostOptions) => void;
  disabled?: boolean;
}

/**
 * The publish form's per-platform choices, as TikTok's Content Sharing Guidelines ask of a
 * posting screen (developers.tiktok.com/doc/content-sharing-guidelines): the creator's nickname,
 * a privacy level from creator_info with no default, the interaction switches greyed where the
 * creator turned them off, the commercial-content question and the music-usage declaration.
 */
export function PlatformOptionsPanel({ actor, errorOf, accountIds, ticked, value, onChange, disabled }: PlatformOptionsPanelProps) {
  const rules = useSelector(actor, (snapshot) => snapshot.context.rules);
  const loading = useSelector(actor, (snapshot) => snapshot.matches('loading'));
  const saving = useSelector(actor, (snapshot) => snapshot.matches('saving'));
  const idsKey = accountIds.join(',');
  useEffect(() => {
    actor.send({ type: 'profiles.changed', accountIds: idsKey ? idsKey.split(',').map(Number) : [] });
  }, [actor, idsKey]);

  const on = (platform: PlatformName) => rules.filter((rule) => rule.platforms.includes(platform));
  const tiktokProfiles = ticked.inTikTok ? on('tiktok') : [];
  const youtubeProfiles = ticked.inYouTube ? on('youtube') : [];
  const instagramProfiles = ticked.inInstagram ? on('instagram') : [];
  // A platform added after SPEC's three offers no choice yet: its part says its rules, from its descriptor.
  const rulesOnly = platforms
    .filter((platform): platform is AddedPlatform => !platform.inSpec)
    .filter((platform) => ticked[platform.fields.ticked] && on(platform.id).length > 0);
  if (tiktokProfiles.length + youtubeProfiles.length + instagramProfiles.length + rulesOnly.length === 0) {
    return loading && accountIds.length > 0 ? <p className={styles.note}>{t.postingRules.loading}</p> : null;
  }
  const set = <P extends keyof PostOptions>(platform: P, change: Partial<NonNullable<PostOptions[P]>>) =>
    onChange({ ...value, [platform]: { ...value[platform], ...change } });

  return (
    <div className={styles.panel}>
      {tiktokProfiles.length > 0 && (
        <TikTokChoices
          profiles={tiktokProfiles}
          privacyError={errorOf('options.tiktok.privacyLevel')}
          value={value.tiktok ?? {}}
          onChange={(change) => set('tiktok', change)}
          disabled={disabled}
        />
      )}
      {youtubeProfiles.length > 0 && (
        <YouTubeChoices
          value={value}
          onChange={(change) => set('youtube', change)}
          disabled={disabled}
          errors={{ kids: errorOf('options.youtube.selfDeclaredMadeForKids'), category: errorOf('options.youtube.categoryId') }}
        />
      )}
      {instagramProfiles.length > 0 && (
        <fieldset className={styles.platform}>
          <legend className={styles.legend}>{t.platform.names.instagram}</legend>
          <Check
            label={t.postingRules.shareToFeed}
            disabled={disabled}
            checked={value.instagram?.shareToFeed ?? instagramDefaults.shareToFeed}
            onChange={(checked) => set('instagram', { shareToFeed: checked })}
          />
        </fieldset>
      )}
      {rulesOnly.map((platform) => (
        <fieldset key={platform.id} className={styles.platform}>
          <legend className={styles.legend}>{t.platform.names[platform.id]}</legend>
          <p className={styles.note}>{t.postingRules.platformRules[platform.id](platform.limits)}</p>
        </fieldset>
      ))}
      <div className={styles.actions}>
        <Button
          variant="secondary"
          type="button"
          disabled={disabled || saving}
          onClick={() => actor.send({ type: 'defaults.save', options: value })}
        >
          {t.postingRules.saveDefaults}
        </Button>
      </div>
    </div>
  );
}

function TikTokChoices({
  profiles,
  privacyError,
  value,
  onChange,
  disabled,
}: {
  profiles: ProfilePostingRules[];
  privacyError: string | undefined;
  value: TikTokPostOptions;
  onChange: (change: TikTokPostOptions) => void;
  disabled?: boolean;
}) {
  const creators = profiles.flatMap((profile) => (profile.tiktok ? [profile.tiktok] : []));
  // One choice goes to every chosen profile, so only a level every creator is offered can be picked.
  const offered = offeredPrivacyLevels(creators);
  const labels = {
    disableComment: t.postingRules.allowComment,
    disableDuet: t.postingRules.allowDuet,
    disableStitch: t.postingRules.allowStitch,
  };
  const commercial = Boolean(value.brandContentToggle || value.brandOrganicToggle);
  const longest = longestTikTokVideo(creators);

  return (
    <fieldset className={styles.platform}>
      <legend className={styles.legend}>{t.platform.names.tiktok}</legend>
      {profiles.map((profile) => (
        <p key={profile.accountId} className={styles.note}>
          {profile.tiktok
            ? t.postingRules.postingAs(profile.title, profile.tiktok.nickname)
            : t.postingRules.creatorUnavailable(profile.title, profile.tiktokError ?? '')}
        </p>
      ))}
      {longest !== null && <p className={styles.note}>{t.postingRules.maxDuration(longest)}</p>}
      <Select
        label={t.postingRules.tiktokPrivacy}
        error={privacyError}
        disabled={disabled}
        value={value.privacyLevel ?? ''}
        onChange={(level) =>
          // The switches start off, as TikTok asks; a choice made in the form is sent as made.
          onChange({
            privacyLevel: (level || undefined) as TikTokPostOptions['privacyLevel'],
            disableComment: value.disableComment ?? tiktokInteractionsOff.disableComment,
            disableDuet: value.disableDuet ?? tiktokInteractionsOff.disableDuet,
            disableStitch: value.disableStitch ?? tiktokInteractionsOff.disableStitch,
          })
        }
      >
        <option value="">{t.postingRules.choose}</option>
        {offered.map((level) => (
          <option key={level} value={level} disabled={level === 'SELF_ONLY' && Boolean(value.brandContentToggle)}>
            {t.postingRules.privacyLevels[level]}
          </option>
        ))}
      </Select>
      <div className={styles.choices}>
        {tiktokInteractions.map((interaction) => {
          const off = interactionOffByCreator(creators, interaction);
          return (
            <Check
              key={interaction.choice}
              label={labels[interaction.choice]}
              title={off ? t.postingRules.disabledByCreator : undefined}
              disabled={disabled || off}
              checked={!off && value[interaction.choice] === false}
              onChange={(checked) => onChange({ [interaction.choice]: !checked })}
            />
          );
        })}
      </div>
      <Check
        label={t.postingRules.commercial}
        disabled={disabled}
        checked={commercial}
        onChange={(checked) => onChange(checked ? { brandOrganicToggle: true } : { brandOrganicToggle: false, brandContentToggle: false })}
      />
      {commercial && (
        <div className={`${styles.choices} ${styles.nested}`}>
          <Check
            label={t.postingRules.brandOrganic}
            disabled={disabled}
            checked={Boolean(value.brandOrganicToggle)}
            onChange={(checked) => onChange({ brandOrganicToggle: checked })}
          />
          <Check
            label={t.postingRules.brandContent}
            disabled={disabled || value.privacyLevel === 'SELF_ONLY'}
            checked={Boolean(value.brandContentToggle)}
            onChange={(checked) => onChange({ brandContentToggle: checked })}
          />
        </div>
      )}
      {value.privacyLevel === 'SELF_ONLY' && commercial && <p className={styles.note}>{t.postingRules.brandedPrivateHint}</p>}
      <p className={styles.note}>{value.brandContentToggle ? t.postingRules.brandedDeclaration : t.postingRules.musicDeclaration}</p>
    </fieldset>
  );
}

function YouTubeChoices({
  value,
  onChange,
  disabled,
  errors,
}: {
  value: PostOptions;
  onChange: (change: NonNullable<PostOptions['youtube']>) => void;
  disabled?: boolean;
  errors: { kids: string | undefined; category: string | undefined };
}) {
  const youtube = value.youtube ?? {};
  const kidsErrorId = useId();
  return (
    <fieldset className={styles.platform}>
      <legend className={styles.legend}>{t.platform.names.youtube}</legend>
      <Select
        label={t.postingRules.youtubePrivacy}
        disabled={disabled}
        value={youtube.privacyStatus ?? youtubeDefaults.privacyStatus}
        onChange={(status) => onChange({ privacyStatus: status as (typeof youtubePrivacyStatuses)[number] })}
      >
        {youtubePrivacyStatuses.map((status) => (
          <option key={status} value={status}>
            {t.postingRules.youtubeStatuses[status]}
          </option>
        ))}
      </Select>
      <fieldset className={styles.choices} aria-describedby={errors.kids ? kidsErrorId : undefined}>
        <legend>{t.postingRules.madeForKids}</legend>
        {(
          [
            [true, t.postingRules.madeForKidsYes],
            [false, t.postingRules.madeForKidsNo],
          ] as const
        ).map(([kids, label]) => (
          <Check
            key={label}
            type="radio"
            name="selfDeclaredMadeForKids"
            label={label}
            disabled={disabled}
            checked={youtube.selfDeclaredMadeForKids === kids}
            invalid={Boolean(errors.kids)}
            onChange={() => onChange({ selfDeclaredMadeForKids: kids })}
          />
        ))}
        {errors.kids && (
          <p id={kidsErrorId} className={styles.error} role="alert">
            {errors.kids}
          </p>
        )}
      </fieldset>
      <Select
        label={t.postingRules.category}
        error={errors.category}
        disabled={disabled}
        value={youtube.categoryId ?? youtubeDefaults.categoryId}
        onChange={(category) => onChange({ categoryId: category })}
      >
        {youtubeCategories.map((id) => (
          <option key={id} value={id}>
            {t.postingRules.categories[id]}
          </option>
        ))}
      </Select>
    </fieldset>
  );
}

function Select({
  label,
  value,
  onChange,
  disabled,
  error,
  children,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  disabled?: boolean;
  error?: string;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={styles.label}>
        {label}
      </label>
      <select
        id={id}
        className={styles.input}
        disabled={disabled}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event) => onChange(event.target.value)}
      >
        {children}
      </select>
      {error && (
        <p id={`${id}-error`} className={styles.error} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

function Check({
  label,
  checked,
  onChange,
  disabled,
  title,
  type = 'checkbox',
  name,
  invalid,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
  title?: string;
  type?: 'checkbox' | 'radio';
  name?: string;
  invalid?: boolean;
}) {
  return (
    <label className={styles.check} title={title}>
      <input
        type={type}
        name={name}
        disabled={disabled}
        checked={checked}
        aria-invalid={invalid || undefined}
        onChange={(event) => onChange(event.target.checked)}
      />
      {label}
    </label>
  );
}
