import { useEffect, useState, type DragEvent, type ReactNode } from 'react';
import { useDropzone, type Accept, type FileRejection } from 'react-dropzone';
import { Upload } from 'lucide-react';
import * as t from '../lib/i18n';
import { Button } from './button';
import styles from './dropzone.module.css';

export type DragState = 'idle' | 'accepting' | 'rejecting';

/** `types`: the MIME type of each dragged file, all a browser tells about them before the drop. */
export type DragChange = { active: false } | { active: true; acceptable: boolean; types: string[] };

const fileTypesOf = (event: DragEvent<HTMLElement>) =>
  Array.from(event.dataTransfer?.items ?? [])
    .filter((item) => item.kind === 'file')
    .map((item) => item.type);

interface DropzoneProps {
  accept: Accept;
  /** Once a drop: the files that passed the drop area's own checks, and those it refused with why. */
  onDrop: (files: File[], rejections: FileRejection[]) => void;
  /** Reports the drag as it happens; `drag` is what the owner's state says it is. */
  onDragChange: (drag: DragChange) => void;
  drag: DragState;
  disabled?: boolean;
  buttonLabel: string;
  hints: Record<DragState, string>;
  children?: ReactNode;
}

/**
 * The drop area with a button that opens the file picker. Clicking the area itself does nothing,
 * so the button is the one obvious way to browse.
 */
export function Dropzone({ accept, onDrop, onDragChange, drag, disabled, buttonLabel, hints, children }: DropzoneProps) {
  const { getRootProps, getInputProps, open, isDragActive, isDragReject } = useDropzone({
    accept,
    disabled,
    noClick: true,
    noKeyboard: true,
    onDrop,
  });
  // Read while the dragenter runs: once it has, the browser no longer lists the dragged items.
  const [draggedTypes, setDraggedTypes] = useState<string[]>([]);

  useEffect(() => {
    onDragChange(isDragActive ? { active: true, acceptable: !isDragReject, types: draggedTypes } : { active: false });
  }, [isDragActive, isDragReject, draggedTypes, onDragChange]);

  return (
    <div
      {...getRootProps({
        className: `${styles.zone} ${styles[drag]} ${disabled ? styles.disabled : ''}`,
        onDragEnter: (event) => setDraggedTypes(fileTypesOf(event)),
      })}
    >
      {/* Named apart from the button that opens it, which is what operators and tests reach for. */}
      <input {...getInputProps({ 'aria-label': t.upload.fileInput })} />
      <Upload className={styles.icon} size={28} aria-hidden />
      <p className={styles.hint}>{hints[drag]}</p>
      <Button variant="secondary" onClick={open} disabled={disabled}>
        {buttonLabel}
      </Button>
      {children}
    </div>
  );
}

/**
 * The toasts for files the drop area refused: the screen's own wording for a wrong type, else the
 * spec's 'Файл "{name}" не прийнято: {reason}' with react-dropzone's reasons.
 */
export function rejectionMessages(rejections: FileRejection[], wrongType: (name: string) => string): string[] {
  return rejections.map(({ file, errors }) =>
    errors.some((error) => error.code === 'file-invalid-type')
      ? wrongType(file.name)
      : t.upload.rejected(file.name, errors.map((error) => error.message).join(', ')),
  );
}
