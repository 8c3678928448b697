import { useDeferredValue, useEffect, useState, type ReactNode } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import { Controller, get, set, useForm, useWatch, type FieldErrors, type Resolver } from 'react-hook-form';
import { superstructResolver } from '@hookform/resolvers/superstruct';
import { useSelector } from '@xstate/react';
import { Film, X } from 'lucide-react';
import type { PublicationRequestDetail, PublishVideoItem, SelectOption } from '../../lib/contract';
import { assignmentPreview, platformGaps, tickedPlatforms, type AssignedVideo, type PlatformGap } from '../../lib/assignment';
import { platforms, type PlatformFieldName } from '../../lib/platforms';
import { kyivWallTime } from '../../lib/kyiv-time';
import * as t from '../../lib/i18n';
import { commonText, emptyPublishFields, sentTexts, spreadWordsOf, videoNumbers, worstValuesOf } from '../../lib/publishing';
import { textProblems, type PostText } from '../../lib/post-texts';
import { choiceProblems } from '../../lib/posting-rules';
import { publishDateProblem, publishFieldsSchema, type PublishFields } from '../../lib/schemas';
import { draftKeyOf, draftOf, publishDrafts } from '../../machines/publish-draft-store';
import { useSessionUser } from '../../components/auth-context';
import { publishMachine, type PublishEvent, type SpreadNotes } from '../../machines/publish-machine';
import { postingRulesMachine } from '../../machines/posting-rules-machine';
import { Button, buttonClass } from '../../components/button';
import { DateTimeField } from '../../components/date-time-field';
import { DeleteButton } from '../../components/delete-button';
import { DuplicatesConsent } from '../../components/duplicates-consent';
import { PlatformOptionsPanel } from '../../components/platform-options-panel';
import { MultiSelect } from '../../components/multi-select';
import { PostingBudget } from '../../components/posting-budget';
import { PostWords } from '../../components/post-words';
import { SpreadPanel, type ProposedDay } from '../../components/spread-panel';
import { Card, Page } from '../../components/page';
import { QuickChips } from '../../components/quick-chips';
import { Spinner } from '../../components/spinner';
import { useScreenActor } from '../../components/use-screen-actor';
import { useFocusFirstError } from '../../components/use-focus-first-error';
import styles from './publish-screen.module.css';
import { PublishTexts } from './publish-texts';
import { useNow } from '../../components/use-now';

interface VideoCardProps {
  video: PublishVideoItem;
  /** Its place in the request, which names it. */
  number: number;
  /** The profile the rule gives it, as the server will. */
  assigned: AssignedVideo | undefined;
  /** Ticked platforms its profile lacks. */
  gap: PlatformGap | undefined;
  posterUrl: string | null;
  profiles: SelectOption[];
  /** Why 'Розподілити' gave it its date, while the date is the proposal's. */
  spreadReason: string | undefined;
  /** The proposed posts' final words where they are not the set's, and the set's own words. */
  spreadWords: { posts: SpreadNotes['posts'][number]; set: PostText } | undefined;
  disabled: boolean;
  send: (event: PublishEvent) => void;
}

function VideoCard({ video, number, assigned, gap, posterUrl, profiles, spreadReason, spreadWords, disabled, send }: VideoCardProps) {
  const now = useNow();
  const hintId = `video-${video.id}-assigned`;
  const gapId = `video-${video.id}-platforms`;
  const byRule = !video.account;
  return (
    <li className={styles.video}>
      <a href={video.url ?? undefined} target="_blank" rel="noreferrer" className={styles.preview} aria-label={t.publish.preview(number)}>
        {posterUrl ? <img src={posterUrl} alt="" loading="lazy" /> : <Film size={24} aria-hidden />}
      </a>
      <div className={styles.videoFields}>
        <div className={styles.videoHeader}>
          <span className={styles.videoName}>{t.publish.video(number)}</span>
          <button
            type="button"
            className={styles.remove}
            aria-label={t.publish.removeVideo(number)}
            onClick={() => send({ type: 'video.remove', videoId: video.id })}
            disabled={disabled}
          >
            <X size={16} aria-hidden />
          </button>
        </div>
        <select
          className={styles.control}
          aria-label={t.publish.videoAccount(number)}
          aria-describedby={[byRule || video.byHand || video.lostProfile ? hintId : '', gap ? gapId : ''].join(' ').trim() || undefined}
          value={video.account?.id ?? ''}
          // A native select cuts a long name to its width: the whole name on hover.
          title={profiles.find((profile) => profile.id === video.account?.id)?.title}
          disabled={disabled}
          onChange={(event) =>
            send({ type: 'video.profile', videoId: video.id, profileId: event.target.value ? Number(event.target.value) : null })
          }
        >
          <option value="">{t.publish.anyAccount}</option>
          {profiles.map((profile) => (
            <option key={profile.id} value={profile.id}>
              {profile.title}
            </option>
          ))}
        </select>
        {video.lostProfile ? (
          <p id={hintId} className={styles.lost} role="status">
            {t.postTruth.manualProfileRemoved(video.lostProfile.title)}
          </p>
        ) : video.byHand ? (
          <p id={hintId} className={styles.assigned}>
            {t.postTruth.chosenByHand}
          </p>
        ) : (
          byRule && (
            <p id={hintId} className={styles.assigned}>
              {assigned?.profile ? t.publish.assignedByRule(assigned.profile.title) : t.publish.assignedNone}
            </p>
          )
        )}
        {gap && (
          <p id={gapId} className={gap.refused ? styles.gapRefused : styles.gap}>
            {gap.message}
          </p>
        )}
        <DateTimeField
          label={t.publish.videoDate(number)}
          value={video.date ?? ''}
          disabled={disabled}
          error={video.date ? publishDateProblem(video.date, now) : undefined}
          onChange={(date) => send({ type: 'video.date', videoId: video.id, date })}
        />
        {spreadReason && <p className={styles.assigned}>{spreadReason}</p>}
        {spreadReason && spreadWords && <PostWords posts={spreadWords.posts} set={spreadWords.set} />}
      </div>
    </li>
  );
}

type PublishActor = ReturnType<typeof usePublishActor>;

/**
 * The form's own fields live in react-hook-form (with their checks); the profiles, the videos and
 * their assignment live in the machine, which this view only shows and sends events to.
 */
function PublishFormView({ detail, actor, draftKey }: { detail: PublicationRequestDetail; actor: PublishActor; draftKey?: string }) {
  const submitting = useSelector(actor, (snapshot) => snapshot.matches('submitting'));
  const spreading = useSelector(actor, (snapshot) => snapshot.matches('spreading'));
  const spread = useSelector(actor, (snapshot) => snapshot.context.spread);
  const duplicates = useSelector(actor, (snapshot) => snapshot.context.duplicates);
  const allowDuplicates = useSelector(actor, (snapshot) => snapshot.context.allowDuplicates);
  // The texts, at the top, are drawn with the heading; the rest of the form follows in a render
  // React may pause between elements (a deferred value starts false), so a phone's main thread is
  // not held for the whole form at once and the first screenful is not kept waiting for the rest
  // (Lighthouse's total blocking time and largest paint, docs/benchmarks.md).
  const restDrawn = useDeferredValue(true, false);
  const accounts = useSelector(actor, (snapshot) => snapshot.context.accounts);
  const videos = useSelector(actor, (snapshot) => snapshot.context.videos);
  const assignment = useSelector(actor, (snapshot) => (snapshot.context.submitted ? snapshot.context.errors : {}));
  const rulesActor = useScreenActor(postingRulesMachine, { id: 'posting-rules', input: { accountIds: [] } });
  const fieldsResolver = superstructResolver(publishFieldsSchema(Date.now));
  // The form's own checks, then what the route would refuse in the platforms' choices, each on its field (issue 40.4).
  const resolver: Resolver<PublishFields> = async (values, context, options) => {
    const checked = await fieldsResolver(values, context, options);
    // The chosen profiles' rules as they are at the submit.
    const problems = choiceProblems(rulesActor.getSnapshot().context.rules, tickedPlatforms(values), values.options ?? {});
    // What each ticked platform refuses in its words (issue 43.2), on the field of its own tab.
    const { accounts: chosen, videos: left, detail: request } = actor.getSnapshot().context;
    const worst = worstValuesOf(chosen, left, request);
    for (const problem of textProblems(commonText(values), sentTexts(values), tickedPlatforms(values), worst)) {
      problems.set(`texts.${problem.platform}.${problem.field}`, problem.message);
    }
    if (problems.size === 0) return checked;
    const errors: FieldErrors<PublishFields> = { ...checked.errors };
    for (const [field, message] of problems) set(errors, field, { type: 'rule', message });
    return { values: {}, errors };
  };
  const {
    register,
    control,
    handleSubmit,
    getValues,
    setValue,
    subscribe,
    formState: { errors, isSubmitted, submitCount },
  } = useForm<PublishFields>({
    resolver,
    defaultValues: { ...emptyPublishFields, ...draftOf(draftKey)?.fields },
    shouldFocusError: false,
  });
  const onSubmit = useFocusFirstError(
    handleSubmit(
      (fields) => actor.send({ type: 'form.submit', fields }),
      () => actor.send({ type: 'form.invalid' }),
    ),
  );
  // The small copy where there is one: the card shows it at 72 × 128 px.
  const posters = new Map(detail.video.map((video) => [video.id, video.thumbnailUrl ?? video.posterUrl]));
  const numbers = videoNumbers(detail.video);
  const preview = assignmentPreview(videos, accounts);
  const assignedTo = new Map(preview.videos.map((assigned) => [assigned.videoId, assigned]));
  const tickValues = useWatch({ control, name: platforms.map((platform) => platform.fields.ticked) });
  const ticked = Object.fromEntries(platforms.map((platform, index) => [platform.fields.ticked, tickValues[index] === true])) as Record<
    PlatformFieldName<'ticked'>,
    boolean
  >;
  const platformsOf = new Map(detail.accounts.map((profile) => [profile.id, profile.platforms]));
  const gaps = platformGaps(preview.videos, ticked, platformsOf, numbers);
  const gapOf = new Map(gaps.map((gap) => [gap.videoId, gap]));
  const refusedCount = gaps.filter((gap) => gap.refused).length;
  const titles = (profiles: SelectOption[]) => profiles.map((profile) => profile.title).join(', ');
  // The posting budget speaks of the plan's days: each video's own date, else the form's, else today (Kyiv).
  const planDate = useWatch({ control, name: 'date' });
  const [today] = useState(() => kyivWallTime(Date.now()));
  const dayOf = (videoId: number) => (videos.find((video) => video.id === videoId)?.date || planDate || today).slice(0, 10);
  const planDays = [...new Set(preview.videos.map((assigned) => dayOf(assigned.videoId)))].sort();
  const budgetDays = planDays.length > 0 ? planDays : [(planDate || today).slice(0, 10)];
  const newPostsOn = (day: string) => {
    const newPosts = new Map<number, number>();
    for (const assigned of preview.videos) {
      if (assigned.profile && dayOf(assigned.videoId) === day)
        newPosts.set(assigned.profile.id, (newPosts.get(assigned.profile.id) ?? 0) + 1);
    }
    return newPosts;
  };
  const titleOf = new Map([...detail.accounts, ...accounts].map((profile) => [profile.id, profile.title]));
  const proposedDays: ProposedDay[] = [];
  for (const { day, accountId, posts } of spread?.days ?? []) {
    if (proposedDays.at(-1)?.day !== day) proposedDays.push({ day, profiles: [] });
    proposedDays.at(-1)!.profiles.push({ title: titleOf.get(accountId) ?? `#${accountId}`, posts });
  }

  // The fields typed so far wait in the draft for the operator's return.
  useEffect(
    () =>
      subscribe({
        formState: { values: true },
        callback: ({ values }) => {
          if (draftKey) publishDrafts.trigger.keep({ key: draftKey, draft: { fields: values } });
        },
      }),
    [subscribe, draftKey],
  );

  return (
    <form noValidate onSubmit={onSubmit} className={styles.layout}>
      <Card>
        <PublishTexts
          control={control}
          register={register}
          getValues={getValues}
          setValue={setValue}
          errors={errors}
          submitCount={submitCount}
          isSubmitted={isSubmitted}
          ticked={tickedPlatforms(ticked)}
          worst={worstValuesOf(accounts, videos, detail)}
          tagSets={detail.tagProfile}
          disabled={submitting}
        />
        {assignment.texts && (
          <p className={styles.error} role="alert">
            {assignment.texts}
          </p>
        )}
        {restDrawn && (
          <>
            <fieldset className={styles.platforms}>
              <legend className={styles.legend}>{t.publish.platforms}</legend>
              {platforms
                .map(({ id, fields: { ticked: name } }) => [name, t.platform.names[id]] as const)
                .map(([name, label]) => (
                  <label key={name} className={styles.checkbox}>
                    <input
                      type="checkbox"
                      disabled={submitting}
                      aria-invalid={assignment.platforms ? true : undefined}
                      aria-describedby={assignment.platforms ? 'publish-platforms-error' : undefined}
                      {...register(name)}
                    />
                    {label}
                  </label>
                ))}
              {assignment.platforms && (
                <p id="publish-platforms-error" className={styles.error} role="alert">
                  {assignment.platforms}
                </p>
              )}
            </fieldset>
            <MultiSelect
              label={t.publish.accounts}
              placeholder={t.groups.accountsPlaceholder}
              options={detail.accounts}
              value={accounts}
              onChange={(profiles) => actor.send({ type: 'profiles.choose', profiles })}
              error={assignment.accounts}
            />
            <p className={styles.rule}>{t.publish.assignmentRule}</p>
            <QuickChips
              label={t.publish.groups}
              items={detail.group}
              disabled={submitting}
              onPick={(group) => actor.send({ type: 'group.pick', group })}
            />
            {/* After the profiles' choosers: the panels a pick brings appear ahead of the focus, not behind it. */}
            <Controller
              control={control}
              name="options"
              render={({ field }) => (
                <PlatformOptionsPanel
                  actor={rulesActor}
                  errorOf={(choice) => (get(errors, choice) as { message?: string } | undefined)?.message}
                  accountIds={accounts.map((profile) => profile.id)}
                  ticked={ticked}
                  value={field.value ?? {}}
                  onChange={field.onChange}
                  disabled={submitting}
                />
              )}
            />
            <div className={styles.date}>
              <Controller
                control={control}
                name="date"
                render={({ field }) => (
                  <DateTimeField
                    label={t.publish.date}
                    value={field.value ?? ''}
                    onChange={field.onChange}
                    disabled={submitting}
                    error={errors.date?.message}
                  />
                )}
              />
            </div>
            <PostingBudget profiles={accounts} days={budgetDays} platforms={tickedPlatforms(ticked)} newPostsOn={newPostsOn} />
          </>
        )}
      </Card>
      {restDrawn && (
        <>
          <Card>
            <h2 className={styles.panelTitle}>{t.publish.videos}</h2>
            {videos.length > 0 && (
              <SpreadPanel
                busy={spreading}
                disabled={submitting}
                unplaced={(spread?.unplaced ?? []).map((item) => ({
                  name: t.publish.video(numbers.get(item.videoId)!),
                  reason: item.reason,
                }))}
                days={proposedDays}
                onPropose={(range) => actor.send({ type: 'spread.propose', range, platforms: ticked, words: spreadWordsOf(getValues()) })}
              />
            )}
            {videos.length > 0 && (preview.idle.length > 0 || preview.shared.length > 0 || gaps.length > 0) && (
              <div role="status" className={styles.balance}>
                {preview.idle.length > 0 && <p>{t.publish.profilesIdle(preview.idle.length, titles(preview.idle))}</p>}
                {preview.shared.length > 0 && <p>{t.publish.profilesShared(preview.shared.length, titles(preview.shared))}</p>}
                {gaps.length > 0 && <p>{t.postTruth.gapsSummary(gaps.length, refusedCount)}</p>}
              </div>
            )}
            {videos.length === 0 ? (
              <p className={styles.empty}>{t.publish.noVideos}</p>
            ) : (
              <ul className={styles.videos}>
                {videos.map((video) => (
                  <VideoCard
                    key={video.id}
                    video={video}
                    number={numbers.get(video.id)!}
                    assigned={assignedTo.get(video.id)}
                    gap={gapOf.get(video.id)}
                    posterUrl={posters.get(video.id) ?? null}
                    profiles={accounts}
                    spreadReason={spread?.reasons[video.id]}
                    spreadWords={spread?.posts[video.id] && { posts: spread.posts[video.id]!, set: commonText(getValues()) }}
                    disabled={submitting}
                    send={actor.send}
                  />
                ))}
              </ul>
            )}
            {assignment.video && (
              <p className={styles.error} role="alert">
                {assignment.video}
              </p>
            )}
          </Card>
          {/* After the videos: on a phone Save comes once every video's profile and date are seen. */}
          <div className={styles.actions}>
            {duplicates.length > 0 && (
              <DuplicatesConsent
                role="alert"
                className={styles.duplicates}
                label={t.spread.saveAnyway}
                allowed={allowDuplicates}
                disabled={submitting}
                onAllow={(allow) => actor.send({ type: 'duplicates.allow', allow })}
              >
                <p className={styles.duplicatesTitle}>{t.spread.duplicatesTitle}</p>
                <ul>
                  {duplicates.map((line) => (
                    <li key={line}>{line}</li>
                  ))}
                </ul>
                <p>{t.spread.duplicatesHint}</p>
              </DuplicatesConsent>
            )}
            <Button type="submit" disabled={submitting}>
              {t.publish.save}
            </Button>
          </div>
        </>
      )}
    </form>
  );
}

function usePublishActor(idUpload: string | undefined, draftKey: string | undefined) {
  const [, navigate] = useLocation();
  return useScreenActor(publishMachine.provide({ actions: { 'leave to request list': () => navigate('/video/request-create') } }), {
    id: 'publish-request',
    input: { idUpload, draftKey, draft: draftOf(draftKey) },
  });
}

/** The request's own delete, asked first; the machine sends it and goes back to the list. */
function DeleteRequest({ detail, send }: { detail: PublicationRequestDetail; send: (event: PublishEvent) => void }) {
  return (
    <DeleteButton
      label={t.requests.deleteLabel(detail.sourceName ?? null, detail.id)}
      text={t.requests.delete}
      consequence={t.requests.deleteConsequence(detail.status === 'published')}
      onDelete={() => send({ type: 'request.delete' })}
    />
  );
}

function PublishRequest({ idUpload }: { idUpload: string | undefined }) {
  const draftKey = draftKeyOf(useSessionUser()?.id, idUpload);
  const actor = usePublishActor(idUpload, draftKey);
  const detail = useSelector(actor, (snapshot) => snapshot.context.detail);
  const remove = detail && <DeleteRequest detail={detail} send={actor.send} />;
  if (detail?.status === 'published') return <AlreadyPublished idUpload={detail.idUpload} actions={remove} />;
  return (
    <Page title={t.publish.title} actions={remove}>
      {detail ? <PublishFormView detail={detail} actor={actor} draftKey={draftKey} /> : <Spinner />}
    </Page>
  );
}

/** A request is published once; its set's own page edits what was published. */
function AlreadyPublished({ idUpload, actions }: { idUpload: string; actions: ReactNode }) {
  return (
    <Page title={t.publish.title} actions={actions}>
      <Card>
        <p role="status" className={styles.notice}>
          {t.publish.alreadyPublished}
        </p>
        <Link href={`/video/youtube/${idUpload}`} className={buttonClass('primary')}>
          {t.publish.openPublished}
        </Link>
      </Card>
    </Page>
  );
}

/** /video/request/{idUpload}: the publish form of a finished creation request. */
export function PublishScreen() {
  const { idUpload } = useParams<{ idUpload?: string }>();
  // Another request's link starts over with its own machine.
  return <PublishRequest key={idUpload ?? ''} idUpload={idUpload} />;
}
