import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useSelector } from '@xstate/react';
import { superstructResolver } from '@hookform/resolvers/superstruct';
import { omit, type Infer } from 'superstruct';
import { Film, X } from 'lucide-react';
import { t } from '../../lib/i18n';
import { backgroundChoiceError, createVideoSchema } from '../../lib/schemas';
import { backgroundsMachine } from '../../machines/backgrounds-machine';
import { captureFrame } from '../../lib/video-frame';
import { Button } from '../../components/button';
import { Dropzone } from '../../components/dropzone';
import { Card, Page } from '../../components/page';
import { ProgressBar } from '../../components/progress-bar';
import { TextField } from '../../components/text-field';
import { useScreenActor } from '../../components/use-screen-actor';
import { useUploadForm } from '../../components/use-upload-form';
import { BackgroundPicker } from './background-picker';
import { useLeavePrompt } from '../../components/use-leave-prompt';
import { useFocusFirstError } from '../../components/use-focus-first-error';
import styles from './create-video-screen.module.css';

const accept = { 'video/*': [] };
/** The count is the form's; the file belongs to the upload machine and the backgrounds to theirs, which check them. */
const countSchema = omit(createVideoSchema(), ['video', 'photoIds']);
/** SPEC.md section 9: the preview frame is taken at 1 second. */
const previewAtSeconds = 1;

interface CreateVideoFields {
  countVideo: string;
}

function formatSize(bytes: number): string {
  return bytes >= 1024 ** 3 ? `${(bytes / 1024 ** 3).toFixed(2)} ГБ` : `${(bytes / 1024 ** 2).toFixed(1)} МБ`;
}

function VideoPreview({ file, onRemove, disabled }: { file: File; onRemove: () => void; disabled: boolean }) {
  const [frame, setFrame] = useState<{ file: File; url: string | null } | null>(null);
  useEffect(() => {
    let current = true;
    captureFrame(file, previewAtSeconds).then(
      (url) => current && setFrame({ file, url }),
      () => current && setFrame({ file, url: null }),
    );
    return () => {
      current = false;
    };
  }, [file]);
  const shown = frame?.file === file ? frame : null;

  return (
    <div className={styles.preview}>
      <div className={styles.frame}>
        {shown?.url ? (
          <img src={shown.url} alt={t.createVideo.preview} />
        ) : (
          <span className={styles.placeholder} title={shown ? t.createVideo.previewUnavailable : undefined}>
            <Film size={28} aria-hidden />
          </span>
        )}
      </div>
      <div className={styles.details}>
        <span className={styles.name}>{file.name}</span>
        <span className={styles.meta}>
          {formatSize(file.size)}
          {shown && !shown.url && ` · ${t.createVideo.previewUnavailable}`}
        </span>
      </div>
      <button type="button" className={styles.remove} aria-label={t.upload.remove(file.name)} onClick={onRemove} disabled={disabled}>
        <X size={16} aria-hidden />
      </button>
    </div>
  );
}

export function CreateVideoScreen() {
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<CreateVideoFields, unknown, Infer<typeof countSchema>>({
    resolver: superstructResolver(countSchema, { coerce: true }),
    defaultValues: { countVideo: '1' },
    shouldFocusError: false,
  });
  const upload = useUploadForm({
    id: 'create-video',
    path: '/create-video/create',
    fileField: 'file',
    multiple: false,
    rules: 'video',
    wrongType: t.createVideo.rejectedType,
    doneText: t.createVideo.sent,
    doneHref: '/video/request-create',
  });
  const backgrounds = useScreenActor(backgroundsMachine, { id: 'backgrounds' });
  const choosing = useSelector(backgrounds, (snapshot) => snapshot.matches('choosing'));
  const withoutImages = useSelector(backgrounds, (snapshot) => snapshot.matches('none'));
  const chosen = useSelector(backgrounds, (snapshot) => snapshot.context.chosen);
  const choiceTried = useSelector(backgrounds, (snapshot) => snapshot.context.submitted);
  const choiceError = choosing ? backgroundChoiceError(chosen) : undefined;

  const onSubmit = useFocusFirstError(
    handleSubmit(
      (values) => {
        backgrounds.send({ type: 'submit.tried' });
        const countVideo = String(values.countVideo);
        if (choiceError) upload.invalid();
        // SPEC's own shape when there is nothing to choose: the server then renders over a blurred copy of the source.
        else upload.submit(choosing ? { countVideo, photoIds: JSON.stringify(chosen) } : { countVideo });
      },
      () => {
        backgrounds.send({ type: 'submit.tried' });
        upload.invalid();
      },
    ),
  );

  const file = upload.files[0];
  // A chosen clip is the work here; a File cannot be kept as a draft, so leaving asks first.
  useLeavePrompt(Boolean(file) && !upload.submitting);
  return (
    <Page title={t.createVideo.title}>
      <Card>
        <form noValidate className={styles.form} onSubmit={onSubmit}>
          <div className={styles.count}>
            <TextField
              label={t.createVideo.count}
              placeholder={t.createVideo.countPlaceholder}
              type="number"
              min={1}
              step={1}
              inputMode="numeric"
              disabled={upload.submitting}
              error={errors.countVideo?.message}
              {...register('countVideo')}
            />
          </div>
          {file ? (
            <VideoPreview file={file} onRemove={() => upload.removeFile(0)} disabled={upload.submitting} />
          ) : (
            <Dropzone
              accept={accept}
              multiple={false}
              drag={upload.drag}
              onDragChange={upload.onDragChange}
              onFiles={upload.onFiles}
              onReject={upload.onReject}
              buttonLabel={t.createVideo.pickFile}
              hints={{ idle: t.createVideo.dropHint, accepting: t.createVideo.dropAccept, rejecting: t.createVideo.dropReject }}
            />
          )}
          {upload.filesError && (
            <p className={styles.error} role="alert">
              {upload.filesError}
            </p>
          )}
          <BackgroundPicker actor={backgrounds} error={choiceTried ? choiceError : undefined} disabled={upload.submitting} />
          {upload.submitting && <ProgressBar value={upload.progress} label={t.upload.progress} />}
          <div className={styles.actions}>
            <Button type="submit" disabled={upload.submitting || !(choosing || withoutImages)}>
              {t.createVideo.submit}
            </Button>
          </div>
        </form>
      </Card>
    </Page>
  );
}
