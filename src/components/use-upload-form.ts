import { useCallback, useEffect, useRef } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import type { FileRejection } from 'react-dropzone';
import toast from 'react-hot-toast';
import { toastErrors } from '../lib/toasts';
import { uploadMachine, type UploadInput } from '../machines/upload-machine';
import { rejectionMessages, type DragState } from './dropzone';

interface UploadFormOptions extends UploadInput {
  /** The screen's wording for a file of the wrong type dropped on the area. */
  wrongType: (name: string) => string;
  onDone: (output: unknown) => void;
}

/** Runs an upload form's machine and hands a screen what it shows and the callbacks it wires. */
export function useUploadForm({ wrongType, onDone, ...input }: UploadFormOptions) {
  const actor = useActorRef(uploadMachine, { input });
  const onDoneRef = useRef(onDone);
  onDoneRef.current = onDone;

  useEffect(() => {
    const done = actor.on('upload.done', (event) => onDoneRef.current(event.output));
    const failed = actor.on('upload.failed', (event) => toastErrors(event.error));
    return () => {
      done.unsubscribe();
      failed.unsubscribe();
    };
  }, [actor]);

  const files = useSelector(actor, (snapshot) => snapshot.context.files);
  const progress = useSelector(actor, (snapshot) => snapshot.context.progress);
  const submitting = useSelector(actor, (snapshot) => snapshot.matches({ form: 'submitting' }));
  const drag = useSelector(actor, (snapshot): DragState => {
    if (snapshot.matches({ drag: { active: 'accepting' } })) return 'accepting';
    if (snapshot.matches({ drag: { active: 'rejecting' } })) return 'rejecting';
    return 'idle';
  });

  const onDragChange = useCallback(
    (change: { active: false } | { active: true; acceptable: boolean }) =>
      actor.send(change.active ? { type: 'drag.enter', acceptable: change.acceptable } : { type: 'drag.leave' }),
    [actor],
  );
  const onFiles = useCallback((added: File[]) => actor.send({ type: 'files.add', files: added }), [actor]);
  const onReject = useCallback(
    (rejections: FileRejection[]) => rejectionMessages(rejections, wrongType).forEach((message) => toast.error(message)),
    [wrongType],
  );
  const removeFile = useCallback((index: number) => actor.send({ type: 'file.remove', index }), [actor]);
  const submit = useCallback((fields: Record<string, string>) => actor.send({ type: 'form.submit', fields }), [actor]);

  return { files, progress, submitting, drag, onDragChange, onFiles, onReject, removeFile, submit };
}
