import { useCallback, useEffect } from 'react';
import { useLocation } from 'wouter';
import { useSelector } from '@xstate/react';
import type { FileRejection } from 'react-dropzone';
import toast from 'react-hot-toast';
import { toastErrors } from '../lib/toasts';
import { photoUploadMachine } from '../machines/photo-upload-machine';
import { rejectionMessages, type DragState } from './dropzone';
import { useScreenActor } from './use-screen-actor';

interface UploadFormOptions {
  /** The name the inspector shows. */
  id: string;
  /** The screen's wording for a file of the wrong type dropped on the area. */
  wrongType: (name: string) => string;
  /** Once the server took the upload: what to say, and where to go. */
  doneText: string;
  doneHref: string;
}

/** Runs the image upload's machine and hands the screen what it shows and the callbacks it wires. */
export function useUploadForm({ id, wrongType, doneText, doneHref }: UploadFormOptions) {
  const actor = useScreenActor(photoUploadMachine, { id });
  const [, navigate] = useLocation();

  useEffect(() => {
    const done = actor.on('upload.done', () => {
      toast.success(doneText);
      navigate(doneHref);
    });
    const failed = actor.on('upload.failed', (event) => toastErrors(event.error));
    return () => {
      done.unsubscribe();
      failed.unsubscribe();
    };
  }, [actor, doneText, doneHref, navigate]);

  const files = useSelector(actor, (snapshot) => snapshot.context.files);
  const filesError = useSelector(actor, (snapshot) => (snapshot.context.submitted ? snapshot.context.filesError : undefined));
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
  const onDrop = useCallback(
    (added: File[], rejections: FileRejection[]) => {
      if (added.length > 0) actor.send({ type: 'files.add', files: added });
      rejectionMessages(rejections, wrongType).forEach((message) => toast.error(message));
    },
    [actor, wrongType],
  );
  const removeFile = useCallback((index: number) => actor.send({ type: 'file.remove', index }), [actor]);
  const submit = useCallback(() => actor.send({ type: 'form.submit' }), [actor]);

  return { files, filesError, progress, submitting, drag, onDragChange, onDrop, removeFile, submit };
}
