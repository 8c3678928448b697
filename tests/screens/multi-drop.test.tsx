import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { ApiError, api } from '../../src/lib/api';
import * as t from '../../src/lib/i18n';
import { answerApi, renderScreen } from './render';

/** Each upload's XMLHttpRequest, answered by the test: its progress, and how it ends. */
const uploads = vi.hoisted(() => ({
  running: [] as Array<{
    path: string;
    form: FormData;
    onProgress: (fraction: number) => void;
    resolve: (body: unknown) => void;
    reject: (error: unknown) => void;
  }>,
}));

vi.mock('../../src/lib/api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../src/lib/api')>()),
  api: vi.fn(),
  upload: (path: string, form: FormData, onProgress: (fraction: number) => void) =>
    new Promise((resolve, reject) => uploads.running.push({ path, form, onProgress, resolve, reject })),
}));

vi.mock('../../src/lib/video-frame', () => ({
  captureFrame: () => Promise.resolve('data:image/jpeg;base64,AAAA'),
}));

const { CreateVideoScreen } = await import('../../src/screens/video/create-video-screen');

const clip = (name: string) => new File(['v'], name, { type: 'video/mp4' });
const clips = (count: number) => Array.from({ length: count }, (_, index) => clip(`clip-${index + 1}.mp4`));
/** The server's answer to a text file named like a video (server/media/probe.ts, server/messages.ts). */
const notVideo = 'Файл повинен бути відео';

let user: UserEvent;

beforeEach(async () => {
  user = userEvent.setup();
  uploads.running.length = 0;
  answerApi({ 'GET /create-video/backgrounds': { data: [{ id: 5, url: '/api/media/photos/1/e.png?exp=1&sig=e' }] } });
});

afterEach(() => {
  toast.remove();
  vi.mocked(api).mockReset();
});

async function renderForm() {
  const rendered = renderScreen(<CreateVideoScreen />, { path: '/video/create' });
  await screen.findByRole('checkbox', { name: t.photos.image(5) });
  const pick = (files: File[]) => user.upload(rendered.container.querySelector('input[type=file]') as HTMLInputElement, files);
  return { ...rendered, pick };
}

/** The file names of the uploads started so far, in order. */
const startedNames = () => uploads.running.map((each) => (each.form.get('file') as File).name);
/** The upload of `name` (the latest, when it was sent again). */
const uploadOf = (name: string) => uploads.running.findLast((each) => (each.form.get('file') as File).name === name)!;
const row = (name: string) => screen.getByText(name, { selector: 'span' }).closest('li') as HTMLElement;

describe('create-video form: several sources in one drop', () => {
  it('sends each file as its own request two at a time, shows each one’s progress and the total, names a refused one, and lands on the list', async () => {
    const { pick, location } = await renderForm();
    await user.clear(screen.getByLabelText(t.createVideo.count));
    await user.type(screen.getByLabelText(t.createVideo.count), '3');
    await pick(clips(5));
    expect(within(screen.getByRole('list', { name: t.sourceDrop.files })).getAllByRole('listitem')).toHaveLength(5);
    expect(screen.getByText(t.createVideo.dropLimit(20))).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: t.createVideo.submit }));
    await waitFor(() => expect(startedNames()).toEqual(['clip-1.mp4', 'clip-2.mp4']));
    for (const each of uploads.running) {
      expect(each.path).toBe('/create-video/create');
      expect([...each.form.keys()]).toEqual(['countVideo', 'photoIds', 'file']);
      expect(each.form.get('countVideo')).toBe('3');
      expect(each.form.get('photoIds')).toBe('[5]');
    }
    expect(within(row('clip-3.mp4')).getByText(t.createVideo.sourceWaiting)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: t.upload.remove('clip-3.mp4') })).toBeNull();
    expect(screen.getByLabelText(t.createVideo.count)).toBeDisabled();

    uploadOf('clip-1.mp4').onProgress(0.5);
    uploadOf('clip-2.mp4').onProgress(0.25);
    expect(await screen.findByRole('progressbar', { name: t.createVideo.sourceProgress('clip-1.mp4') })).toHaveAttribute(
      'aria-valuenow',
      '50',
    );
    expect(screen.getByRole('progressbar', { name: t.createVideo.sourceProgress('clip-2.mp4') })).toHaveAttribute('aria-valuenow', '25');
    // (0.5 + 0.25) of 5 files.
    expect(screen.getByRole('progressbar', { name: t.upload.progress })).toHaveAttribute('aria-valuenow', '15');

    uploadOf('clip-2.mp4').reject(new ApiError(400, [notVideo]));
    expect(await screen.findByText(t.upload.rejected('clip-2.mp4', notVideo))).toBeInTheDocument();
    await waitFor(() => expect(startedNames()).toEqual(['clip-1.mp4', 'clip-2.mp4', 'clip-3.mp4']));
    expect(screen.queryByRole('button', { name: t.createVideo.retryLabel('clip-2.mp4') })).toBeNull();

    for (const name of ['clip-1.mp4', 'clip-3.mp4', 'clip-4.mp4', 'clip-5.mp4']) {
      await waitFor(() => expect(startedNames()).toContain(name));
      uploadOf(name).resolve({ id: 1, idUpload: name });
    }
    expect(await screen.findByText(t.createVideo.sourcesSent(4, 5))).toBeInTheDocument();
    // Settled: the count says how it went; no bar stays behind claiming the drop is whole.
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(within(row('clip-4.mp4')).getByText(t.createVideo.sourceSent)).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: t.createVideo.toRequests }));
    expect(location.history?.at(-1)).toBe('/video/request-create');
  });

  it('offers to send again a file whose upload failed, and goes to the list once every file is sent', async () => {
    const { pick, location } = await renderForm();
    await pick(clips(3));
    await user.click(screen.getByRole('button', { name: t.createVideo.submit }));
    await waitFor(() => expect(startedNames()).toHaveLength(2));
    uploadOf('clip-1.mp4').reject(new ApiError(0, [t.upload.connectionLost]));
    expect(await screen.findByText(t.createVideo.sourceFailed('clip-1.mp4', t.upload.connectionLost))).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: t.createVideo.retryLabel('clip-1.mp4') }));
    expect(screen.queryByText(t.createVideo.sourceFailed('clip-1.mp4', t.upload.connectionLost))).toBeNull();

    uploadOf('clip-2.mp4').resolve({ id: 2 });
    await waitFor(() => expect(startedNames()).toEqual(['clip-1.mp4', 'clip-2.mp4', 'clip-3.mp4', 'clip-1.mp4']));
    uploadOf('clip-3.mp4').resolve({ id: 3 });
    uploadOf('clip-1.mp4').resolve({ id: 4 });
    expect(await screen.findByText(t.createVideo.sentSeveral(3))).toBeInTheDocument();
    expect(t.createVideo.sentSeveral(3)).toBe('Надіслано 3 запити на створення відео');
    await waitFor(() => expect(location.history?.at(-1)).toBe('/video/request-create'));
  });

  it('takes 20 files and refuses the 21st by name', async () => {
    const { pick } = await renderForm();
    await pick(clips(21));
    expect(within(row('clip-21.mp4')).getByRole('alert')).toHaveTextContent(
      t.upload.rejected('clip-21.mp4', t.createVideo.tooManySources(20)),
    );
    expect(t.createVideo.tooManySources(20)).toBe('за один раз можна додати не більше 20 відео');
    // 20 to send and the 21st's refusal, in one list.
    expect(within(screen.getByRole('list', { name: t.sourceDrop.files })).getAllByRole('listitem')).toHaveLength(21);
    // The drop area goes while the drop is full, and comes back when a file is taken out.
    expect(screen.queryByRole('button', { name: t.createVideo.pickFile })).toBeNull();
    await user.click(screen.getByRole('button', { name: t.upload.remove('clip-20.mp4') }));
    expect(screen.getByRole('button', { name: t.createVideo.pickFile })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: t.upload.remove('clip-21.mp4') }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('asks before the page is left while files are chosen or on their way, and not once all are sent', async () => {
    const { pick } = await renderForm();
    const leave = () => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    };
    expect(leave()).toBe(false);
    await pick(clips(1));
    expect(leave()).toBe(true);
    await user.click(screen.getByRole('button', { name: t.createVideo.submit }));
    await waitFor(() => expect(startedNames()).toHaveLength(1));
    expect(leave()).toBe(true);
    uploadOf('clip-1.mp4').resolve({ id: 1 });
    expect(await screen.findByText(t.createVideo.sent)).toBeInTheDocument();
    expect(leave()).toBe(false);
  });
});

/** The drop area, found by what it says when nothing is dragged over it. */
const zone = () => screen.getByText(t.createVideo.dropHint).closest('div') as HTMLElement;
const notes = () => new File(['нотатки до зйомки'], 'нотатки.txt', { type: 'text/plain' });
/** During a drag a browser tells only each file's kind and type; names come with the drop. */
const dragOf = (files: File[]) => ({
  dataTransfer: { types: ['Files'], items: files.map((file) => ({ kind: 'file', type: file.type })), files: [] },
});
const dropOf = (files: File[]) => ({ dataTransfer: { types: ['Files'], files } });

describe('create-video form: a drop of mixed files', () => {
  it('says while dragging how many of the files it will take, and turns red only when it takes none', async () => {
    await renderForm();
    const area = zone();
    const mixed = [...clips(5), notes()];
    fireEvent.dragEnter(area, dragOf(mixed));
    expect(await screen.findByText('Буде прийнято 5 з 6 файлів')).toBeInTheDocument();
    expect(t.sourceDrop.takes(5, 6)).toBe('Буде прийнято 5 з 6 файлів');
    expect(screen.queryByText(t.createVideo.dropReject)).toBeNull();
    fireEvent.dragLeave(area, dragOf(mixed));
    expect(await screen.findByText(t.createVideo.dropHint)).toBeInTheDocument();

    fireEvent.dragEnter(area, dragOf([notes()]));
    expect(await screen.findByText(t.createVideo.dropReject)).toBeInTheDocument();
    fireEvent.dragLeave(area, dragOf([notes()]));
    await screen.findByText(t.createVideo.dropHint);

    fireEvent.dragEnter(area, dragOf(clips(2)));
    expect(await screen.findByText(t.createVideo.dropAccept)).toBeInTheDocument();
    // The plural follows the count after 'з': one file, 21 files, 3 files.
    expect([t.sourceDrop.takes(0, 1), t.sourceDrop.takes(20, 21), t.sourceDrop.takes(2, 3)]).toEqual([
      'Буде прийнято 0 з 1 файлу',
      'Буде прийнято 20 з 21 файлу',
      'Буде прийнято 2 з 3 файлів',
    ]);
  });

  it('queues the five videos of a drop of six and lists the text file by name with its reason, not in a toast', async () => {
    await renderForm();
    fireEvent.drop(zone(), dropOf([clip('a.mp4'), clip('b.mp4'), notes(), clip('c.mp4'), clip('d.mp4'), clip('e.mp4')]));
    const list = await screen.findByRole('list', { name: t.sourceDrop.files });
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(6));
    expect(within(row('нотатки.txt')).getByRole('alert')).toHaveTextContent('Файл «нотатки.txt» не прийнято: це не відео');
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(screen.queryByRole('status')).toBeNull();

    await user.click(screen.getByRole('button', { name: t.createVideo.submit }));
    await waitFor(() => expect(startedNames()).toEqual(['a.mp4', 'b.mp4']));
    for (const name of ['a.mp4', 'b.mp4', 'c.mp4', 'd.mp4', 'e.mp4']) {
      await waitFor(() => expect(startedNames()).toContain(name));
      uploadOf(name).resolve({ id: 1 });
    }
    expect(await screen.findByText(t.createVideo.sentSeveral(5))).toBeInTheDocument();
    expect(startedNames()).not.toContain('нотатки.txt');
  });

  it('shows a file the server refused with its reason, never at 100 % and never counted as sent', async () => {
    const { pick } = await renderForm();
    await pick([clip('нотатки.mp4')]);
    await user.click(screen.getByRole('button', { name: t.createVideo.submit }));
    await waitFor(() => expect(startedNames()).toEqual(['нотатки.mp4']));

    // Every byte on its way, no answer yet: the row says the server checks it, the drop's bar is short of whole.
    uploadOf('нотатки.mp4').onProgress(1);
    expect(await within(row('нотатки.mp4')).findByText(t.sourceDrop.checking)).toBeInTheDocument();
    expect(screen.queryByRole('progressbar', { name: t.createVideo.sourceProgress('нотатки.mp4') })).toBeNull();
    expect(screen.getByRole('progressbar', { name: t.upload.progress })).toHaveAttribute('aria-valuenow', '99');

    uploadOf('нотатки.mp4').reject(new ApiError(400, [notVideo]));
    expect(await within(row('нотатки.mp4')).findByRole('alert')).toHaveTextContent(t.upload.rejected('нотатки.mp4', notVideo));
    expect(screen.getByText(t.createVideo.sourcesSent(0, 1))).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.queryByText(/100\s?%/)).toBeNull();
    expect(screen.queryByRole('link', { name: t.createVideo.toRequests })).toBeNull();
  });
});
