import { useEffect, useMemo } from 'react';
import { X } from 'lucide-react';
import * as t from '../../lib/i18n';
import { Button } from '../../components/button';
import { Dropzone } from '../../components/dropzone';
import { Card, Page } from '../../components/page';
import { ProgressBar } from '../../components/progress-bar';
import { useUploadForm } from '../../components/use-upload-form';
import styles from './photo-upload-screen.module.css';

const accept = { 'image/*': [] };

function Previews({ files, onRemove, disabled }: { files: File[]; onRemove: (index: number) => void; disabled: boolean }) {
  const urls = useMemo(() => files.map((file) => URL.createObjectURL(file)), [files]);
  useEffect(() => () => urls.forEach((url) => URL.revokeObjectURL(url)), [urls]);
  if (files.length === 0) return null;
  return (
    <ul className={styles.previews}>
      {files.map((file, index) => (
        <li key={urls[index]} className={styles.preview}>
          <img src={urls[index]} alt={file.name} className={styles.image} />
          <span className={styles.name} title={file.name}>
            {file.name}
          </span>
          <button
            type="button"
            className={styles.remove}
            aria-label={t.upload.remove(file.name)}
            onClick={() => onRemove(index)}
            disabled={disabled}
          >
            <X size={14} aria-hidden />
          </button>
        </li>
      ))}
    </ul>
  );
}

export function PhotoUploadScreen() {
  const upload = useUploadForm({
    id: 'photo-upload',
    wrongType: t.photos.rejectedType,
    doneText: t.photos.uploaded,
    doneHref: '/photos/list',
  });

  return (
    <Page title={t.photos.title}>
      <Card>
        <form
          noValidate
          className={styles.form}
          onSubmit={(event) => {
            event.preventDefault();
            upload.submit();
          }}
        >
          <Dropzone
            accept={accept}
            drag={upload.drag}
            onDragChange={upload.onDragChange}
            onDrop={upload.onDrop}
            disabled={upload.submitting}
            buttonLabel={t.photos.pickFiles}
            hints={{ idle: t.photos.dropHint, accepting: t.photos.dropAccept, rejecting: t.photos.dropReject }}
          />
          {upload.filesError && (
            <p className={styles.error} role="alert">
              {upload.filesError}
            </p>
          )}
          <Previews files={upload.files} onRemove={upload.removeFile} disabled={upload.submitting} />
          {upload.submitting && <ProgressBar value={upload.progress} label={t.upload.progress} />}
          <div className={styles.actions}>
            <Button type="submit" disabled={upload.submitting}>
              {t.app.save}
            </Button>
          </div>
        </form>
      </Card>
    </Page>
  );
}
