import { useEffect, useRef, type MutableRefObject } from 'react';
import { useLocation, useParams } from 'wouter';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { superstructResolver } from '@hookform/resolvers/superstruct';
import { useActorRef, useSelector } from '@xstate/react';
import { Film, X } from 'lucide-react';
import type { PublicationRequestDetail, SelectOption } from '../../lib/contract';
import { t } from '../../lib/i18n';
import { assignProfilesInOrder, publishFormOf, publishPayloadOf } from '../../lib/publishing';
import { publishSchema, type PublishForm } from '../../lib/schemas';
import { addTags } from '../../lib/tags';
import { publishMachine } from '../../machines/publish-machine';
import { Button } from '../../components/button';
import { MultiSelect } from '../../components/multi-select';
import { Card, Page } from '../../components/page';
import { QuickChips } from '../../components/quick-chips';
import { Spinner } from '../../components/spinner';
import { TagInput } from '../../components/tag-input';
import { TextAreaField } from '../../components/text-area-field';
import { TextField } from '../../components/text-field';
import styles from './publish-screen.module.css';

type VideoItem = PublishForm['video'][number];

/** Profiles chosen first keep their place; a group adds the ones not chosen yet. */
function withProfiles(chosen: SelectOption[], added: SelectOption[]): SelectOption[] {
  const ids = new Set(chosen.map((option) => option.id));
  return [...chosen, ...added.filter((option) => !ids.has(option.id))];
}

interface VideoCardProps {
  video: VideoItem;
  posterUrl: string | null;
  profiles: SelectOption[];
  disabled: boolean;
  onChange: (video: VideoItem) => void;
  onRemove: () => void;
}

function VideoCard({ video, posterUrl, profiles, disabled, onChange, onRemove }: VideoCardProps) {
  return (
    <li className={styles.video}>
      <a href={video.url} target="_blank" rel="noreferrer" className={styles.preview} aria-label={t.publish.preview(video.id)}>
        {posterUrl ? <img src={posterUrl} alt="" /> : <Film size={24} aria-hidden />}
      </a>
      <div className={styles.videoFields}>
        <div className={styles.videoHeader}>
          <span className={styles.videoName}>{t.publish.video(video.id)}</span>
          <button type="button" className={styles.remove} aria-label={t.publish.removeVideo(video.id)} onClick={onRemove} disabled={disabled}>
            <X size={16} aria-hidden />
          </button>
        </div>
        <select
          className={styles.control}
          aria-label={t.publish.videoAccount(video.id)}
          value={video.account?.id ?? ''}
          disabled={disabled}
          onChange={(event) =>
            onChange({ ...video, account: profiles.find((profile) => String(profile.id) === event.target.value) ?? null })
          }
        >
          <option value="">{t.publish.anyAccount}</option>
          {profiles.map((profile) => (
            <option key={profile.id} value={profile.id}>
              {profile.title}
            </option>
          ))}
        </select>
        <input
          type="datetime-local"
          className={styles.control}
          aria-label={t.publish.videoDate(video.id)}
          value={video.date ?? ''}
          disabled={disabled}
          onChange={(event) => onChange({ ...video, date: event.target.value })}
        />
      </div>
    </li>
  );
}

interface PublishFormViewProps {
  detail: PublicationRequestDetail;
  submitting: boolean;
  onSubmit: (values: PublishForm) => void;
  resetForm: MutableRefObject<() => void>;
}

function PublishFormView({ detail, submitting, onSubmit, resetForm }: PublishFormViewProps) {
  const {
    register,
    control,
    handleSubmit,
    getValues,
    setValue,
    reset,
    formState: { errors, isSubmitted },
  } = useForm<PublishForm>({ resolver: superstructResolver(publishSchema), defaultValues: publishFormOf(detail) });
  const videos = useWatch({ control, name: 'video' });
  const accounts = useWatch({ control, name: 'accounts' });
  const posters = new Map(detail.video.map((video) => [video.id, video.posterUrl]));

  useEffect(() => {
    resetForm.current = () => reset();
  }, [reset, resetForm]);

  const update = { shouldValidate: isSubmitted, shouldDirty: true };
  const chooseProfiles = (chosen: SelectOption[]) => {
    setValue('accounts', chosen, update);
    setValue('video', assignProfilesInOrder(getValues('video'), chosen), update);
  };
  const setVideos = (next: VideoItem[]) => setValue('video', next, update);

  return (
    <form noValidate onSubmit={handleSubmit(onSubmit)} className={styles.layout}>
      <Card>
        <TextField label={t.publish.name} autoComplete="off" disabled={submitting} error={errors.title?.message} {...register('title')} />
        <TextAreaField label={t.publish.description} disabled={submitting} error={errors.description?.message} {...register('description')} />
        <Controller
          control={control}
          name="tags"
          render={({ field, fieldState }) => (
            <TagInput label={t.publish.tags} value={field.value} onChange={field.onChange} error={fieldState.error?.message} />
          )}
        />
        <QuickChips
          label={t.publish.tagSets}
          items={detail.tagProfile}
          disabled={submitting}
          onPick={(tagSet) => setValue('tags', addTags(getValues('tags'), tagSet.tags.join(' ')), update)}
        />
        <fieldset className={styles.platforms}>
          <legend className={styles.legend}>{t.publish.platforms}</legend>
          {(
            [
              ['inYouTube', t.accountForm.youtube],
              ['inTikTok', t.accountForm.tiktok],
              ['inInstagram', t.accountForm.instagram],
            ] as const
          ).map(([name, label]) => (
            <label key={name} className={styles.checkbox}>
              <input type="checkbox" disabled={submitting} {...register(name)} />
              {label}
            </label>
          ))}
        </fieldset>
        <Controller
          control={control}
          name="accounts"
          render={({ fieldState }) => (
            <MultiSelect
              label={t.publish.accounts}
              placeholder={t.groups.accountsPlaceholder}
              options={detail.accounts}
              value={accounts}
              onChange={chooseProfiles}
              error={fieldState.error?.message}
            />
          )}
        />
        <QuickChips
          label={t.publish.groups}
          items={detail.group}
          disabled={submitting}
          onPick={(group) => chooseProfiles(withProfiles(getValues('accounts'), group.accounts))}
        />
        <div className={styles.date}>
          <TextField label={t.publish.date} type="datetime-local" disabled={submitting} error={errors.date?.message} {...register('date')} />
        </div>
        <div className={styles.actions}>
          <Button type="submit" disabled={submitting}>
            {t.publish.save}
          </Button>
        </div>
      </Card>
      <Card>
        <h2 className={styles.panelTitle}>{t.publish.videos}</h2>
        {videos.length === 0 ? (
          <p className={styles.empty}>{t.publish.noVideos}</p>
        ) : (
          <ul className={styles.videos}>
            {videos.map((video, index) => (
              <VideoCard
                key={video.id}
                video={video}
                posterUrl={posters.get(video.id) ?? null}
                profiles={accounts}
                disabled={submitting}
                onChange={(changed) => setVideos(videos.map((item, position) => (position === index ? changed : item)))}
                onRemove={() => setVideos(videos.filter((_, position) => position !== index))}
              />
            ))}
          </ul>
        )}
        {errors.video && (
          <p className={styles.error} role="alert">
            {errors.video.message}
          </p>
        )}
      </Card>
    </form>
  );
}

function PublishRequest({ idUpload }: { idUpload: string | undefined }) {
  const [, navigate] = useLocation();
  const resetForm = useRef<() => void>(() => {});
  const actor = useActorRef(
    publishMachine.provide({
      actions: {
        'leave to request list': () => navigate('/video/request-create'),
        'reset form': () => resetForm.current(),
      },
    }),
    { input: { idUpload } },
  );
  const detail = useSelector(actor, (snapshot) => snapshot.context.detail);
  const submitting = useSelector(actor, (snapshot) => snapshot.matches('submitting'));

  return (
    <Page title={t.publish.title}>
      {detail ? (
        <PublishFormView
          detail={detail}
          submitting={submitting}
          resetForm={resetForm}
          onSubmit={(values) => actor.send({ type: 'form.submit', payload: publishPayloadOf(detail.id, values) })}
        />
      ) : (
        <Spinner />
      )}
    </Page>
  );
}

/** /video/request/{idUpload}: the publish form of a finished creation request. */
export function PublishScreen() {
  const { idUpload } = useParams<{ idUpload?: string }>();
  // Another request's link starts over with its own machine.
  return <PublishRequest key={idUpload ?? ''} idUpload={idUpload} />;
}
