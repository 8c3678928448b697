import { useCallback, useEffect, useState } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import { Controller, useForm } from 'react-hook-form';
import { superstructResolver } from '@hookform/resolvers/superstruct';
import toast from 'react-hot-toast';
import { RotateCw } from 'lucide-react';
import { api } from '../../lib/api';
import type { PublishedVideo, RetryPayload, UploadDetail } from '../../lib/contract';
import { formatDate } from '../../lib/dates';
import { t } from '../../lib/i18n';
import { hasVideosInProgress, tagsFromText } from '../../lib/publishing';
import { publishedEditSchema, type PublishedEditForm } from '../../lib/schemas';
import { addTags } from '../../lib/tags';
import { toastErrors } from '../../lib/toasts';
import { publishedDetailPollMs } from '../../machines/polling-machine';
import { Button } from '../../components/button';
import { DataTable, type Column } from '../../components/data-table';
import { Card, Page } from '../../components/page';
import { QuickChips } from '../../components/quick-chips';
import { Spinner } from '../../components/spinner';
import { StatusBadge } from '../../components/status-badge';
import { TagInput } from '../../components/tag-input';
import { TextAreaField } from '../../components/text-area-field';
import { TextField } from '../../components/text-field';
import { usePolling } from '../../components/use-polling';
import { VideoLinks } from '../../components/video-links';
import { VideoStats } from '../../components/video-stats';
import { VideoStatus } from '../../components/video-table';
import styles from './published-screen.module.css';

const detailPath = (idUpload: string) => `/upload-video/${encodeURIComponent(idUpload)}`;

function EditCard({ detail, onSaved }: { detail: UploadDetail; onSaved: (detail: UploadDetail) => void }) {
  const {
    register,
    control,
    handleSubmit,
    getValues,
    setValue,
    formState: { errors, isSubmitting, isSubmitted },
  } = useForm<PublishedEditForm>({
    resolver: superstructResolver(publishedEditSchema),
    defaultValues: { title: detail.title, description: detail.description, tags: tagsFromText(detail.tags) },
  });

  const save = async (values: PublishedEditForm) => {
    try {
      const saved = await api<UploadDetail>('PATCH', detailPath(detail.idUpload), values);
      toast.success(t.published.updated);
      onSaved(saved);
    } catch (error) {
      toastErrors(error);
    }
  };

  return (
    <form noValidate onSubmit={handleSubmit(save)} className={styles.form}>
      <Card>
        <h2 className={styles.panelTitle}>{t.published.editPanel}</h2>
        <TextField label={t.publish.name} autoComplete="off" error={errors.title?.message} {...register('title')} />
        <TextAreaField label={t.publish.description} error={errors.description?.message} {...register('description')} />
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
          onPick={(tagSet) =>
            setValue('tags', addTags(getValues('tags'), tagSet.tags.join(' ')), { shouldValidate: isSubmitted, shouldDirty: true })
          }
        />
        <div className={styles.actions}>
          <Button type="submit" disabled={isSubmitting}>
            {t.app.save}
          </Button>
        </div>
      </Card>
    </form>
  );
}

/** Mounted only while videos are on their way, so a settled set stops asking. */
function RefreshWhileBusy({ onRefresh }: { onRefresh: () => void }) {
  usePolling(publishedDetailPollMs, onRefresh);
  return null;
}

function VideoList({ detail, onChanged }: { detail: UploadDetail; onChanged: () => Promise<void> }) {
  const [retrying, setRetrying] = useState<number | null>(null);

  const retry = async (video: PublishedVideo) => {
    const payload: RetryPayload = { videoId: video.id, youTubeId: detail.idUpload };
    setRetrying(video.id);
    try {
      await api('POST', '/upload-video/upload', payload);
      await onChanged();
    } catch (error) {
      toastErrors(error);
    } finally {
      setRetrying(null);
    }
  };

  const columns: Column<PublishedVideo>[] = [
    { header: t.videoTable.columnId, cell: (video) => video.id, width: '70px' },
    {
      header: t.videoTable.columnAccount,
      cell: (video) => (video.account ? <Link href={`/accounts/${video.account.id}`}>#{video.account.id}</Link> : '—'),
      width: '100px',
    },
    { header: t.videoTable.columnDate, cell: (video) => formatDate(video.date), width: '150px' },
    {
      header: t.videoTable.columnLinks,
      cell: (video) => <VideoLinks urlYouTube={video.urlYouTube} urlInstagram={video.urlInstagram} urlTiktok={video.urlTiktok} />,
    },
    { header: t.videoTable.columnStats, cell: (video) => (video.status === 'success' ? <VideoStats video={video} /> : null) },
    {
      header: t.videoTable.columnStatus,
      width: '220px',
      cell: (video) =>
        video.status === 'error' ? (
          <span className={styles.failed}>
            <VideoStatus video={video} />
            <Button variant="secondary" disabled={retrying !== null} onClick={() => retry(video)}>
              <RotateCw size={14} aria-hidden />
              {t.published.republish}
            </Button>
          </span>
        ) : (
          <StatusBadge status={video.status} kind="video" />
        ),
    },
  ];

  return (
    <section className={styles.videos}>
      <h2 className={styles.panelTitle}>{t.published.videosPanel}</h2>
      <DataTable columns={columns} rows={detail.video} rowKey={(video) => video.id} />
    </section>
  );
}

function PublishedSet({ idUpload }: { idUpload: string }) {
  const [, navigate] = useLocation();
  const [detail, setDetail] = useState<UploadDetail>();

  useEffect(() => {
    let current = true;
    api<UploadDetail>('GET', detailPath(idUpload)).then(
      (loaded) => current && setDetail(loaded),
      (error) => {
        if (!current) return;
        toastErrors(error);
        navigate('/video/list');
      },
    );
    return () => {
      current = false;
    };
  }, [idUpload, navigate]);

  // A refresh that fails keeps what is shown: the set was there a moment ago.
  const refresh = useCallback(() => api<UploadDetail>('GET', detailPath(idUpload)).then(setDetail, toastErrors), [idUpload]);

  if (!detail) return <Spinner />;
  return (
    <Page title={t.published.detailTitle(detail.idUpload)} actions={<StatusBadge status={detail.status} kind="video" />}>
      {hasVideosInProgress(detail.video) && <RefreshWhileBusy onRefresh={refresh} />}
      <EditCard key={detail.id} detail={detail} onSaved={setDetail} />
      <VideoList detail={detail} onChanged={refresh} />
    </Page>
  );
}

function BackToList() {
  const [, navigate] = useLocation();
  useEffect(() => navigate('/video/list'), [navigate]);
  return null;
}

/** /video/youtube/{idUpload}: a published set, its texts to edit and its videos as they go out. */
export function PublishedScreen() {
  const { idUpload } = useParams<{ idUpload?: string }>();
  // Another set's link starts over rather than showing the previous one while it loads.
  return idUpload ? <PublishedSet key={idUpload} idUpload={idUpload} /> : <BackToList />;
}
