import { useCallback, useEffect, useState } from 'react';
import { Link, useLocation } from 'wouter';
import toast from 'react-hot-toast';
import { useForm } from 'react-hook-form';
import { useSelector } from '@xstate/react';
import { superstructResolver } from '@hookform/resolvers/superstruct';
import { omit, type Infer } from 'superstruct';
import { Check, FileX, Film, X } from 'lucide-react';
import { fileSize } from '../../lib/i18n/words';
import * as t from '../../lib/i18n';
import { backgroundChoiceError, createVideoSchema } from '../../lib/schemas';
import { backgroundsMachine } from '../../machines/backgrounds-machine';
import { maxSourcesPerDrop, sourcesMachine, type DragCount, type RefusedFile, type Source } from '../../machines/sources-machine';
import { captureFrame } from '../../lib/video-frame';
import { Button } from '../../components/button';
import { Dropzone, type DragChange, type DragState } from '../../components/dropzone';
import { Card, Page } from '../../components/page';
import { ProgressBar } from '../../components/progress-bar';
import { TextField } from '../../components/text-field';
import { useScreenActor } from '../../components/use-screen-actor';
import { BackgroundPicker } from './background-picker';
import { useLeavePrompt } from '../../components/use-leave-prompt';
import { useFocusFirstError } from '../../components/use-focus-first-error';
import styles from './create-video-screen.module.css';

const accept = { 'video/*': [] };
/** The count is the form's; the files belong to the sources machine and the backgrounds to theirs, which check them. */
const countSchema = omit(createVideoSchema(), ['video', 'photoIds']);
/** SPEC.md section 9: the preview frame is taken at 1 second. */
const previewAtSeconds = 1;
/** The request list polls each request's rendering, so the drop's requests are watched there. */
const requestListHref = '/video/request-create';
/** The drop's bar before every file has its answer: 99 %, never 100. */
const almostWhole = 0.99;

interface CreateVideoFields {
  countVideo: string;
}

function SourceFrame({ file }: { file: File }) {
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
    <div className={styles.frame}>
      {shown?.url ? (
        <img src={shown.url} alt={t.createVideo.preview} />
      ) : (
        <span className={styles.placeholder} title={shown ? t.createVideo.previewUnavailable : undefined}>
          <Film size={28} aria-hidden />
        </span>
      )}
    </div>
  );
}

/** Where one file of the drop is: its size while chosen, then its queue place, progress and outcome. */
function SourceStatus({ source }: { source: Source }) {
  const { file, state, progress, reason } = source;
  if (state === 'chosen') return <span className={styles.meta}>{fileSize(file.size)}</span>;
  if (state === 'waiting') return <span className={styles.meta}>{t.createVideo.sourceWaiting}</span>;
  // Every byte sent is not yet a file taken: until the server answers, the row says it checks rather than '100 %'.
  if (state === 'sending' && progress >= 1) return <span className={styles.meta}>{t.sourceDrop.checking}</span>;
  if (state === 'sending') return <ProgressBar value={progress} label={t.createVideo.sourceProgress(file.name)} />;
  if (state === 'sent')
    return (
      <span className={styles.sent}>
        <Check size={14} aria-hidden /> {t.createVideo.sourceSent}
      </span>
    );
  return (
    <span className={styles.refusal} role="alert">
      {state === 'refused' ? t.upload.rejected(file.name, reason ?? '') : t.createVideo.sourceFailed(file.name, reason ?? '')}
    </span>
  );
}

function SourceRow({ source, onRemove, onRetry }: { source: Source; onRemove: () => void; onRetry: () => void }) {
  return (
    <li className={source.state === 'refused' ? `${styles.preview} ${styles.refusedRow}` : styles.preview}>
      <SourceFrame file={source.file} />
      <div className={styles.details}>
        <span className={styles.name}>{source.file.name}</span>
        <SourceStatus source={source} />
      </div>
      {source.state === 'chosen' && (
        <button type="button" className={styles.remove} aria-label={t.upload.remove(source.file.name)} onClick={onRemove}>
          <X size={16} aria-hidden />
        </button>
      )}
      {source.state === 'failed' && (
        <Button variant="secondary" onClick={onRetry} aria-label={t.createVideo.retryLabel(source.file.name)}>
          {t.createVideo.retry}
        </Button>
      )}
    </li>
  );
}

/** A file the drop refused: its name and why, where the file would have been. */
function RefusedRow({ refused, onDismiss }: { refused: RefusedFile; onDismiss: () => void }) {
  const reason = refused.reason === 'not-video' ? t.sourceDrop.notVideo : t.createVideo.tooManySources(maxSourcesPerDrop);
  return (
    <li className={`${styles.preview} ${styles.refusedRow}`}>
      <div className={`${styles.frame} ${styles.refusedFrame}`}>
        <FileX size={28} aria-hidden />
      </div>
      <div className={styles.details}>
        <span className={styles.name}>{refused.name}</span>
        <span className={styles.refusal} role="alert">
          {t.upload.rejected(refused.name, reason)}
        </span>
      </div>
      <button type="button" className={styles.remove} aria-label={t.upload.remove(refused.name)} onClick={onDismiss}>
        <X size={16} aria-hidden />
      </button>
    </li>
  );
}

/** How the zone looks and what it says while files are dragged over it: it refuses only a drag it would take none of. */
function dragLook(drag: DragCount | null): { state: DragState; accepting: string } {
  if (drag === null) return { state: 'idle', accepting: t.createVideo.dropAccept };
  const accepting = drag.taken < drag.dragged ? t.sourceDrop.takes(drag.taken, drag.dragged) : t.createVideo.dropAccept;
  return { state: drag.taken === 0 ? 'rejecting' : 'accepting', accepting };
}

/** The drop's files and what the form does with them, from the sources machine. */
function useSources() {
  const actor = useScreenActor(sourcesMachine, { id: 'create-video' });
  const [, navigate] = useLocation();
  useEffect(() => {
    const sent = actor.on('sources.sent', ({ count }) => {
      toast.success(count === 1 ? t.createVideo.sent : t.createVideo.sentSeveral(count));
      navigate(requestListHref);
    });
    return () => sent.unsubscribe();
  }, [actor, navigate]);

  const sources = useSelector(actor, (snapshot) => snapshot.context.sources);
  const refusedOnDrop = useSelector(actor, (snapshot) => snapshot.context.refusedOnDrop);
  const submitted = useSelector(actor, (snapshot) => snapshot.context.submitted);
  const drag = useSelector(actor, (snapshot) => snapshot.context.drag);
  const picking = useSelector(actor, (snapshot) => snapshot.matches('picking'));
  const sending = useSelector(actor, (snapshot) => snapshot.matches('sending'));
  const onDragChange = useCallback(
    (change: DragChange) => actor.send(change.active ? { type: 'drag.enter', types: change.types } : { type: 'drag.leave' }),
    [actor],
  );
  // The machine judges every dropped file itself, so the ones the zone's own filter set aside go to it too.
  const onDrop = useCallback(
    (files: File[], rejections: { file: File }[]) =>
      actor.send({ type: 'files.add', files: [...files, ...rejections.map((rejection) => rejection.file)] }),
    [actor],
  );
  return { actor, sources, refusedOnDrop, submitted, drag, picking, sending, onDragChange, onDrop };
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
  const { actor, sources, refusedOnDrop, submitted, drag, picking, sending, onDragChange, onDrop } = useSources();
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
        if (choiceError) actor.send({ type: 'form.invalid' });
        // SPEC's own shape when there is nothing to choose: the server then renders over a blurred copy of the source.
        else actor.send({ type: 'form.submit', fields: choosing ? { countVideo, photoIds: JSON.stringify(chosen) } : { countVideo } });
      },
      () => {
        backgrounds.send({ type: 'submit.tried' });
        actor.send({ type: 'form.invalid' });
      },
    ),
  );

  const started = !picking;
  const sent = sources.filter((source) => source.state === 'sent').length;
  // A refused or failed file adds nothing. The bar shows only while some file still waits for the server's
  // answer, which may be a refusal, so it stops short of whole.
  const total = Math.min(
    almostWhole,
    sources.reduce((sum, source) => sum + (source.state === 'sending' ? source.progress : 0), sent) / sources.length,
  );
  const look = dragLook(drag);
  // Chosen, queued or failed files are work a File cannot be kept for: leaving asks first.
  useLeavePrompt(sources.some((source) => source.state !== 'sent' && source.state !== 'refused'));
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
              disabled={started}
              error={errors.countVideo?.message}
              {...register('countVideo')}
            />
          </div>
          {sources.length + refusedOnDrop.length > 0 && (
            <ul className={styles.sources} aria-label={t.sourceDrop.files}>
              {sources.map((source) => (
                <SourceRow
                  key={source.key}
                  source={source}
                  onRemove={() => actor.send({ type: 'file.remove', key: source.key })}
                  onRetry={() => actor.send({ type: 'file.retry', key: source.key })}
                />
              ))}
              {refusedOnDrop.map((refused) => (
                <RefusedRow
                  key={refused.key}
                  refused={refused}
                  onDismiss={() => actor.send({ type: 'refusal.dismiss', key: refused.key })}
                />
              ))}
            </ul>
          )}
          {!sending && sources.length < maxSourcesPerDrop && (
            <Dropzone
              accept={accept}
              drag={look.state}
              onDragChange={onDragChange}
              onDrop={onDrop}
              buttonLabel={t.createVideo.pickFile}
              hints={{ idle: t.createVideo.dropHint, accepting: look.accepting, rejecting: t.createVideo.dropReject }}
            >
              <p className={styles.meta}>{t.createVideo.dropLimit(maxSourcesPerDrop)}</p>
            </Dropzone>
          )}
          {submitted && sources.length === 0 && (
            <p className={styles.error} role="alert">
              {t.createVideo.atLeastOne}
            </p>
          )}
          <BackgroundPicker actor={backgrounds} error={choiceTried ? choiceError : undefined} disabled={started} />
          {started && (
            <div className={styles.total}>
              {sending && <ProgressBar value={total} label={t.upload.progress} />}
              <p className={styles.meta} role="status">
                <span>{t.createVideo.sourcesSent(sent, sources.length)}</span>
                {sent > 0 && (
                  <>
                    {' · '}
                    <Link href={requestListHref}>{t.createVideo.toRequests}</Link>
                  </>
                )}
              </p>
            </div>
          )}
          <div className={styles.actions}>
            <Button type="submit" disabled={started || !(choosing || withoutImages)}>
              {t.createVideo.submit}
            </Button>
          </div>
        </form>
      </Card>
    </Page>
  );
}
