import { useEffect, useId } from 'react';
import { useSelector } from '@xstate/react';
import type { PostOptions, ProfilePostingRules, TikTokPostOptions } from '../lib/contract';
import { t } from '../lib/i18n';
import { postingRulesMachine } from '../machines/posting-rules-machine';
import { Button } from './button';
import { useScreenActor } from './use-screen-actor';
import styles from './platform-options-panel.module.css';

interface PlatformOptionsPanelProps {
  accountIds: number[];
  ticked: { inYouTube: boolean; inTikTok: boolean; inInstagram: boolean };
  value: PostOptions;
  onChange: (options: PostOptions) => void;
  disabled?: boolean;
}

const youtubeStatuses = ['public', 'unlisted', 'private'] as const;

/**
 * The publish form's per-platform choices, as TikTok's Content Sharing Guidelines ask of a
 * posting screen (developers.tiktok.com/doc/content-sharing-guidelines): the creator's nickname,
 * a privacy level from creator_info with no default, the interaction switches greyed where the
 * creator turned them off, the commercial-content question and the music-usage declaration.
 */
export function PlatformOptionsPanel({ accountIds, ticked, value, onChange, disabled }: PlatformOptionsPanelProps) {
  const actor = useScreenActor(postingRulesMachine, { id: 'posting-rules', input: { accountIds } });
  const rules = useSelector(actor, (snapshot) => snapshot.context.rules);
  const loading = useSelector(actor, (snapshot) => snapshot.matches('loading'));
  const saving = useSelector(actor, (snapshot) => snapshot.matches('saving'));
  const idsKey = accountIds.join(',');
  useEffect(() => {
    actor.send({ type: 'profiles.changed', accountIds: idsKey ? idsKey.split(',').map(Number) : [] });
  }, [actor, idsKey]);

  const on = (platform: 'tiktok' | 'youtube' | 'instagram') => rules.filter((rule) => rule.platforms.includes(platform));
  const tiktokProfiles = ticked.inTikTok ? on('tiktok') : [];
  const youtubeProfiles = ticked.inYouTube ? on('youtube') : [];
  const instagramProfiles = ticked.inInstagram ? on('instagram') : [];
  if (tiktokProfiles.length + youtubeProfiles.length + instagramProfiles.length === 0) {
    return loading && accountIds.length > 0 ? <p className={styles.note}>{t.postingRules.loading}</p> : null;
  }
  const set = <P extends keyof PostOptions>(platform: P, change: Partial<NonNullable<PostOptions[P]>>) =>
    onChange({ ...value, [platform]: { ...value[platform], ...change } });

  return (
    <div className={styles.panel}>
      {tiktokProfiles.length > 0 && (
        <TikTokChoices
          profiles={tiktokProfiles}
          value={value.tiktok ?? {}}
          onChange={(change) => set('tiktok', change)}
          disabled={disabled}
        />
      )}
      {youtubeProfiles.length > 0 && <YouTubeChoices value={value} onChange={(change) => set('youtube', change)} disabled={disabled} />}
      {instagramProfiles.length > 0 && (
        <fieldset className={styles.platform}>
          <legend className={styles.legend}>{t.platform.names.instagram}</legend>
          <label className={styles.check}>
            <input
              type="checkbox"
              disabled={disabled}
              checked={value.instagram?.shareToFeed ?? true}
              onChange={(event) => set('instagram', { shareToFeed: event.target.checked })}
            />
            {t.postingRules.shareToFeed}
          </label>
        </fieldset>
      )}
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
  value,
  onChange,
  disabled,
}: {
  profiles: ProfilePostingRules[];
  value: TikTokPostOptions;
  onChange: (change: TikTokPostOptions) => void;
  disabled?: boolean;
}) {
  const privacyId = useId();
  const creators = profiles.flatMap((profile) => (profile.tiktok ? [profile.tiktok] : []));
  // One choice goes to every chosen profile, so only a level every creator is offered can be picked.
  const offered = Object.keys(t.postingRules.privacyLevels).filter((level) =>
    creators.every((creator) => creator.privacyLevelOptions.includes(level)),
  );
  const switches = [
    ['disableComment', 'commentDisabled', t.postingRules.allowComment],
    ['disableDuet', 'duetDisabled', t.postingRules.allowDuet],
    ['disableStitch', 'stitchDisabled', t.postingRules.allowStitch],
  ] as const;
  const commercial = Boolean(value.brandContentToggle || value.brandOrganicToggle);
  const longest = Math.min(...creators.map((creator) => creator.maxVideoPostDurationSec).filter((seconds) => seconds > 0));

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
      {Number.isFinite(longest) && <p className={styles.note}>{t.postingRules.maxDuration(longest)}</p>}
      <div className={styles.field}>
        <label htmlFor={privacyId} className={styles.label}>
          {t.postingRules.tiktokPrivacy}
        </label>
        <select
          id={privacyId}
          className={styles.input}
          disabled={disabled}
          value={value.privacyLevel ?? ''}
          onChange={(event) =>
            // The switches start off, as TikTok asks; a choice made in the form is sent as made.
            onChange({
              privacyLevel: event.target.value || undefined,
              disableComment: value.disableComment ?? true,
              disableDuet: value.disableDuet ?? true,
              disableStitch: value.disableStitch ?? true,
            })
          }
        >
          <option value="">{t.postingRules.choose}</option>
          {offered.map((level) => (
            <option key={level} value={level} disabled={level === 'SELF_ONLY' && Boolean(value.brandContentToggle)}>
              {t.postingRules.privacyLevels[level]}
            </option>
          ))}
        </select>
      </div>
      <div className={styles.choices}>
        {switches.map(([field, creatorField, label]) => {
          const off = creators.some((creator) => creator[creatorField]);
          return (
            <label key={field} className={styles.check} title={off ? t.postingRules.disabledByCreator : undefined}>
              <input
                type="checkbox"
                disabled={disabled || off}
                checked={!off && value[field] === false}
                onChange={(event) => onChange({ [field]: !event.target.checked })}
              />
              {label}
            </label>
          );
        })}
      </div>
      <label className={styles.check}>
        <input
          type="checkbox"
          disabled={disabled}
          checked={commercial}
          onChange={(event) =>
            onChange(event.target.checked ? { brandOrganicToggle: true } : { brandOrganicToggle: false, brandContentToggle: false })
          }
        />
        {t.postingRules.commercial}
      </label>
      {commercial && (
        <div className={styles.choices}>
          <label className={styles.check}>
            <input
              type="checkbox"
              disabled={disabled}
              checked={Boolean(value.brandOrganicToggle)}
              onChange={(event) => onChange({ brandOrganicToggle: event.target.checked })}
            />
            {t.postingRules.brandOrganic}
          </label>
          <label className={styles.check}>
            <input
              type="checkbox"
              disabled={disabled || value.privacyLevel === 'SELF_ONLY'}
              checked={Boolean(value.brandContentToggle)}
              onChange={(event) => onChange({ brandContentToggle: event.target.checked })}
            />
            {t.postingRules.brandContent}
          </label>
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
}: {
  value: PostOptions;
  onChange: (change: NonNullable<PostOptions['youtube']>) => void;
  disabled?: boolean;
}) {
  const privacyId = useId();
  const categoryId = useId();
  const youtube = value.youtube ?? {};
  return (
    <fieldset className={styles.platform}>
      <legend className={styles.legend}>{t.platform.names.youtube}</legend>
      <div className={styles.field}>
        <label htmlFor={privacyId} className={styles.label}>
          {t.postingRules.youtubePrivacy}
        </label>
        <select
          id={privacyId}
          className={styles.input}
          disabled={disabled}
          value={youtube.privacyStatus ?? 'public'}
          onChange={(event) => onChange({ privacyStatus: event.target.value as (typeof youtubeStatuses)[number] })}
        >
          {youtubeStatuses.map((status) => (
            <option key={status} value={status}>
              {t.postingRules.youtubeStatuses[status]}
            </option>
          ))}
        </select>
      </div>
      <fieldset className={styles.choices}>
        <legend>{t.postingRules.madeForKids}</legend>
        {(
          [
            [true, t.postingRules.madeForKidsYes],
            [false, t.postingRules.madeForKidsNo],
          ] as const
        ).map(([kids, label]) => (
          <label key={label} className={styles.check}>
            <input
              type="radio"
              name="selfDeclaredMadeForKids"
              disabled={disabled}
              checked={youtube.selfDeclaredMadeForKids === kids}
              onChange={() => onChange({ selfDeclaredMadeForKids: kids })}
            />
            {label}
          </label>
        ))}
      </fieldset>
      <div className={styles.field}>
        <label htmlFor={categoryId} className={styles.label}>
          {t.postingRules.category}
        </label>
        <select
          id={categoryId}
          className={styles.input}
          disabled={disabled}
          value={youtube.categoryId ?? '22'}
          onChange={(event) => onChange({ categoryId: event.target.value })}
        >
          {Object.entries(t.postingRules.categories).map(([id, name]) => (
            <option key={id} value={id}>
              {name}
            </option>
          ))}
        </select>
      </div>
    </fieldset>
  );
}
