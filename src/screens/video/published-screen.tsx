import { useLocation, useParams } from 'wouter';
import { useForm } from 'react-hook-form';
import { superstructResolver } from '@hookform/resolvers/superstruct';
import { useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import { CalendarClock, RotateCw, TrendingDown } from 'lucide-react';
import type { PlatformEdit, PostReach, PublishedVideo, PublishProfileOption, ReschedulePayload, UploadDetail } from '../../lib/contract';
import { formatDate, formatMoment, kyivWallTime } from '../../lib/kyiv-time';
import * as t from '../../lib/i18n';
import { tagsFromText } from '../../lib/publishing';
import { publishDateProblem, publishedEditSchema, type PublishedEditForm } from '../../lib/schemas';
import { addTags } from '../../lib/tags';
import { publishedMachine, undoWindowMs, type PublishedEvent, type PublishedFocus } from '../../machines/published-machine';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DataTable, type Column } from '../../components/data-table';
import { DateTimeField } from '../../components/date-time-field';
import { ErrorText } from '../../components/error-text';
import { FormTagsField } from '../../components/form-tags-field';
import { Card, Page } from '../../components/page';
import { ProfileLink } from '../../components/profile-link';
import { Redirect } from '../../components/redirect';
import { Spinner } from '../../components/spinner';
import { StatsPanel } from '../../components/stats-panel';
import { PostBadges, SetCounts } from '../../components/post-badges';
import { StatusBadge } from '../../components/status-badge';
import { TextAreaField } from '../../components/text-area-field';
import { TextField } from '../../components/text-field';
import { useScreenActor } from '../../components/use-screen-actor';
import { useUndoCancelToast } from '../../components/undo-cancel-toast';
import { VideoLinks } from '../../components/video-links';
import { PostWords } from '../../components/post-words';
import { VideoStats } from '../../components/video-stats';
import { VideoStatus } from '../../components/video-table';
import { useFocusFirstError } from '../../components/use-focus-first-error';
import styles from './published-screen.module.css';
import { useNow } from '../../components/use-now';

function EditCard({ detail, saving, onSubmit }: { detail: UploadDetail; saving: boolean; onSubmit: (values: PublishedEditForm) => void }) {
  const {
    register,
    control,
    handleSubmit,
    getValues,
    setValue,
    formState: { errors, isSubmitted },
  } = useForm<PublishedEditForm>({
    resolver: superstructResolver(publishedEditSchema),
    defaultValues: { title: detail.title, description: detail.description, tags: tagsFromText(detail.tags) },
    shouldFocusError: false,
  });
  const submitForm = useFocusFirstError(handleSubmit(onSubmit));

  return (
    <form noValidate onSubmit={submitForm} className={styles.form}>
      <Card>
        <h2 className={styles.panelTitle}>{t.published.editPanel}</h2>
        <TextField label={t.publish.name} autoComplete="off" error={errors.title?.message} {...register('title')} />
        <TextAreaField label={t.publish.description} error={errors.description?.message} {...register('description')} />
        <FormTagsField
          control={control}
          name="tags"
          tagSets={detail.tagProfile}
          onPick={(tagSet) =>
            setValue('tags', addTags(getValues('tags'), tagSet.tags.join(' ')), { shouldValidate: isSubmitted, shouldDirty: true })
          }
        />
        <div className={styles.actions}>
          <Button type="submit" disabled={saving}>
            {t.app.save}
          </Button>
        </div>
        {detail.edits.length > 0 && <EditReach edits={detail.edits} />}
      </Card>
    </form>
  );
}

function editSummary(edit: PlatformEdit): string {
  if (!edit.editable) return t.published.editUnsupported;
  if (edit.pending > 0) return t.published.editPending(edit.pending + edit.done + edit.errors.length);
  if (edit.errors.length > 0) return t.published.editFailed(edit.errors.length);
  if (edit.done > 0) return t.published.editDone(edit.done);
  return t.published.editReady;
}

/** Per platform, plainly: where a saved edit goes, how far it got, and where it cannot reach. */
function EditReach({ edits }: { edits: PlatformEdit[] }) {
  return (
    <section className={styles.reach}>
      <h3 id="edit-reach-title" className={styles.reachTitle}>
        {t.published.editReach}
      </h3>
      {/* A live region around the list: a list item needs its list as parent, so the region is a wrapper. */}
      <div role="status" aria-labelledby="edit-reach-title">
        <ul className={styles.reachList}>
          {edits.map((edit) => (
            <li key={edit.platform} className={edit.errors.length > 0 && edit.pending === 0 ? styles.reachFailed : undefined}>
              <strong>{t.platform.names[edit.platform]}</strong>: {editSummary(edit)}
              {edit.pending === 0 &&
                [...new Set(edit.errors)].map((error) => <ErrorText key={error} className={styles.reachError} text={error} />)}
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

/** What a video's posts wait for, when they are planned, and why a post was never made. */
function PostState({ video }: { video: PublishedVideo }) {
  const now = useNow();
  const next = video.nextAttemptAt ? formatMoment(video.nextAttemptAt, now) : null;
  return (
    <>
      {video.plannedAt && <span className={styles.planned}>{t.postTruth.plannedAt(formatDate(video.plannedAt))}</span>}
      {video.waitReason && (
        <span className={styles.waiting}>
          {video.waitReason}
          {next && `; ${t.postTruth.nextAttemptAt(next.time, next.day)}`}
        </span>
      )}
      {video.publishNote && <span className={styles.note}>{video.publishNote}</span>}
    </>
  );
}

/** The reach marks of a video's posts (issue 32.2), each with its figures. */
function PostReachMarks({ marks }: { marks: PostReach[] }) {
  if (marks.length === 0) return null;
  return (
    <ul className={styles.postReach}>
      {marks.map((mark) => {
        const platform = t.platform.names[mark.platform];
        return (
          <li key={mark.platform}>
            <TrendingDown size={14} aria-hidden />{' '}
            {mark.mark === 'unseen'
              ? t.reach.postUnseen(platform, mark.hoursLive ?? 0)
              : t.reach.postLimited(platform, mark.views, mark.medianViews ?? 0)}
          </li>
        );
      })}
    </ul>
  );
}

// Where the keyboard is sent after a change (PublishedFocus): the editor's first field, a row's 'Змінити'.
const editorId = (videoId: number) => `schedule-editor-${videoId}`;
const changeButtonId = (videoId: number) => `schedule-change-${videoId}`;
const videosHeadingId = 'published-videos';

function focusOn(target: PublishedFocus) {
  const element =
    target.on === 'change'
      ? document.getElementById(changeButtonId(target.videoId))
      : document.getElementById(editorId(target.videoId))?.querySelector<HTMLElement>('input, select, button');
  element?.focus();
}

interface ScheduleEditorProps {
  video: PublishedVideo;
  profiles: PublishProfileOption[];
  busy: boolean;
  send: (event: PublishedEvent) => void;
}

/** A scheduled video's date and profile, to change or cancel until its publication starts. */
function ScheduleEditor({ video, profiles, busy, send }: ScheduleEditorProps) {
  const now = useNow();
  const planned = video.plannedAt ? kyivWallTime(new Date(video.plannedAt).getTime()) : '';
  const [confirming, setConfirming] = useState(false);
  const [date, setDate] = useState(planned);
  const [accountId, setAccountId] = useState(video.account?.id ?? null);
  const change: ReschedulePayload = {
    ...(date && date !== planned ? { date } : {}),
    ...(accountId !== null && accountId !== video.account?.id ? { accountId } : {}),
  };
  return (
    <section id={editorId(video.id)} className={styles.schedule} aria-label={t.postTruth.scheduleTitle(video.id)}>
      <h3 className={styles.scheduleTitle}>{t.postTruth.scheduleTitle(video.id)}</h3>
      <div className={styles.scheduleFields}>
        <DateTimeField
          label={t.postTruth.scheduleDate(video.id)}
          value={date}
          disabled={busy}
          error={date ? publishDateProblem(date, now) : undefined}
          onChange={setDate}
        />
        <label className={styles.scheduleProfile}>
          <span>{t.postTruth.scheduleProfile(video.id)}</span>
          <select
            className={styles.scheduleSelect}
            value={accountId ?? ''}
            disabled={busy}
            onChange={(event) => setAccountId(Number(event.target.value))}
          >
            {profiles.map((profile) => (
              <option key={profile.id} value={profile.id}>
                {profile.title}
              </option>
            ))}
          </select>
        </label>
      </div>
      <div className={styles.scheduleActions}>
        <Button
          disabled={busy || Object.keys(change).length === 0}
          onClick={() => send({ type: 'schedule.save', videoId: video.id, change })}
        >
          {t.postTruth.scheduleSave}
        </Button>
        <Button variant="danger" disabled={busy} onClick={() => setConfirming(true)}>
          {t.postTruth.cancelSchedule}
        </Button>
        <Button variant="secondary" disabled={busy} onClick={() => send({ type: 'schedule.close' })}>
          {t.postTruth.scheduleClose}
        </Button>
      </div>
      {confirming && (
        <ConfirmDialog
          question={t.postTruth.cancelQuestion(video.id)}
          consequence={t.postTruth.cancelConsequence(undoWindowMs / 1000)}
          action={t.postTruth.cancelSchedule}
          dismiss={t.postTruth.keepSchedule}
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            send({ type: 'schedule.cancel', videoId: video.id });
          }}
        />
      )}
    </section>
  );
}

interface VideoListProps {
  detail: UploadDetail;
  retrying: boolean;
  /** The video whose schedule is open for change, and whether a change is on its way. */
  scheduling: number | null;
  schedulingBusy: boolean;
  send: (event: PublishedEvent) => void;
}

function VideoList({ detail, retrying, scheduling, schedulingBusy, send }: VideoListProps) {
  const setWords = { title: detail.title, description: detail.description, tags: tagsFromText(detail.tags) };
  const columns: Column<PublishedVideo>[] = [
    { header: t.videoTable.columnId, cell: (video) => video.id, width: '70px' },
    {
      header: t.videoTable.columnAccount,
      cell: (video) => <ProfileLink account={video.account} known={detail.accounts} />,
      width: '160px',
    },
    { header: t.videoTable.columnDate, cell: (video) => formatDate(video.date), width: '150px' },
    {
      header: t.videoTable.columnLinks,
      cell: (video) => (
        <>
          <VideoLinks video={video} />
          <PostWords posts={video.posts} set={setWords} />
        </>
      ),
    },
    {
      header: t.videoTable.columnStats,
      cell: (video) =>
        video.status === 'success' ? (
          <>
            <VideoStats video={video} />
            <PostReachMarks marks={video.reach} />
          </>
        ) : null,
    },
    {
      header: t.videoTable.columnStatus,
      width: '220px',
      cell: (video) =>
        video.status === 'error' ? (
          <span className={styles.failed}>
            <VideoStatus video={video} />
            <Button variant="secondary" disabled={retrying} onClick={() => send({ type: 'video.retry', videoId: video.id })}>
              <RotateCw size={14} aria-hidden />
              {t.published.republish}
            </Button>
          </span>
        ) : (
          <span className={styles.state}>
            <StatusBadge status={video.status} kind="video" />
            <PostBadges posts={video.posts} />
            <PostState video={video} />
            {video.changeable && scheduling !== video.id && (
              <Button
                id={changeButtonId(video.id)}
                variant="secondary"
                aria-label={t.postTruth.changeScheduleOf(video.id)}
                onClick={() => send({ type: 'schedule.open', videoId: video.id })}
              >
                <CalendarClock size={14} aria-hidden />
                {t.postTruth.changeSchedule}
              </Button>
            )}
          </span>
        ),
    },
  ];
  const open = detail.video.find((video) => video.id === scheduling && video.changeable);

  return (
    <section className={styles.videos}>
      {/* Where the keyboard goes when the undo toast it was on ends. */}
      <h2 id={videosHeadingId} tabIndex={-1} className={styles.panelTitle}>
        {t.published.videosPanel}
      </h2>
      <DataTable columns={columns} rows={detail.video} rowKey={(video) => video.id} />
      {open && <ScheduleEditor key={open.id} video={open} profiles={detail.accounts} busy={schedulingBusy} send={send} />}
    </section>
  );
}

function PublishedSet({ idUpload }: { idUpload: string }) {
  const [, navigate] = useLocation();
  const actor = useScreenActor(publishedMachine.provide({ actions: { 'leave to list': () => navigate('/video/list') } }), {
    id: 'published-set',
    input: { idUpload },
  });
  const detail = useSelector(actor, (snapshot) => snapshot.context.detail);
  const saving = useSelector(actor, (snapshot) => snapshot.matches('saving'));
  const retrying = useSelector(actor, (snapshot) => snapshot.matches('retrying'));
  const scheduling = useSelector(actor, (snapshot) => snapshot.context.scheduling);
  const schedulingBusy = useSelector(actor, (snapshot) => snapshot.matches('rescheduling') || snapshot.matches('cancellingSchedule'));
  const undoable = useSelector(actor, (snapshot) => snapshot.context.undoable);
  const focus = useSelector(actor, (snapshot) => snapshot.context.focus);

  useEffect(() => {
    if (focus) focusOn(focus);
  }, [focus]);

  useUndoCancelToast(undoable, () => actor.send({ type: 'schedule.restore' }), videosHeadingId);

  if (!detail) return <Spinner />;
  return (
    <Page
      title={detail.title || t.screens.untitledSet}
      subtitle={t.published.detailTitle(detail.id, formatDate(detail.publishedAt))}
      actions={
        <span className={styles.setStatus}>
          <StatusBadge status={detail.status} kind="video" />
          <SetCounts posts={detail.posts} />
        </span>
      }
    >
      <EditCard key={detail.id} detail={detail} saving={saving} onSubmit={(values) => actor.send({ type: 'edit.submit', values })} />
      <VideoList detail={detail} retrying={retrying} scheduling={scheduling} schedulingBusy={schedulingBusy} send={actor.send} />
      <StatsPanel path={`/stats/video/${detail.idUpload}`} />
    </Page>
  );
}

/** /video/youtube/{idUpload}: a published set, its texts to edit and its videos as they go out. */
export function PublishedScreen() {
  const { idUpload } = useParams<{ idUpload?: string }>();
  // Another set's link starts over rather than showing the previous one while it loads.
  return idUpload ? <PublishedSet key={idUpload} idUpload={idUpload} /> : <Redirect to="/video/list" />;
}
