import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { api } from '../../src/lib/api';
import * as t from '../../src/lib/i18n';
import { answerApi } from './render';

const uploads = vi.hoisted(() => ({
  calls: [] as Array<{ path: string; form: FormData; onProgress: (fraction: number) => void }>,
}));

vi.mock('../../src/lib/api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../src/lib/api')>()),
  api: vi.fn(),
  // The upload never settles here: the test looks at the form while it is in flight.
  upload: (path: string, form: FormData, onProgress: (fraction: number) => void) => {
    uploads.calls.push({ path, form, onProgress });
    return new Promise(() => undefined);
  },
}));

vi.mock('../../src/lib/video-frame', () => ({
  captureFrame: () => Promise.resolve('data:image/jpeg;base64,AAAA'),
}));

const { PhotoUploadScreen } = await import('../../src/screens/photos/photo-upload-screen');
const { CreateVideoScreen } = await import('../../src/screens/video/create-video-screen');

function renderAt(path: string, screenElement: React.ReactNode) {
  const { hook } = memoryLocation({ path });
  return render(<Router hook={hook}>{screenElement}</Router>);
}

afterEach(() => {
  uploads.calls.length = 0;
  vi.mocked(api).mockReset();
});

/** The operator's images the create form offers, newest first. */
const images = [
  { id: 3, url: '/api/media/photos/1/c.png?exp=1&sig=c' },
  { id: 2, url: '/api/media/photos/1/b.png?exp=1&sig=b' },
];

/** The create form, once the operator's images (`offered`) arrived and are shown. */
async function renderCreateForm(offered = images) {
  answerApi({ 'GET /create-video/backgrounds': { data: offered } });
  const rendered = renderAt('/video/create', <CreateVideoScreen />);
  if (offered.length > 0) await screen.findByRole('checkbox', { name: t.photos.image(offered[0]!.id) });
  else await screen.findByText(t.createVideo.noBackgrounds, { exact: false });
  return rendered;
}

const pickVideo = (container: HTMLElement) =>
  userEvent.upload(container.querySelector('input[type=file]') as HTMLInputElement, new File(['v'], 'clip.mp4', { type: 'video/mp4' }));

describe('image upload form', () => {
  it('asks for at least one image before anything is sent', async () => {
    renderAt('/photos/create', <PhotoUploadScreen />);
    await userEvent.click(screen.getByRole('button', { name: t.app.save }));
    expect(await screen.findByText(t.photos.atLeastOne)).toBeInTheDocument();
    expect(uploads.calls).toEqual([]);
  });

  it('shows a preview per picked image, sends them all as `files`, and shows progress without a second send', async () => {
    const { container } = renderAt('/photos/create', <PhotoUploadScreen />);
    const input = container.querySelector('input[type=file]') as HTMLInputElement;
    await userEvent.upload(input, [new File(['a'], 'one.png', { type: 'image/png' }), new File(['b'], 'two.jpg', { type: 'image/jpeg' })]);
    expect(screen.getByRole('img', { name: 'one.png' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: t.upload.remove('two.jpg') })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: t.app.save }));
    await waitFor(() => expect(uploads.calls).toHaveLength(1));
    expect(uploads.calls[0]!.path).toBe('/photo-bg');
    expect(uploads.calls[0]!.form.getAll('files').map((file) => (file as File).name)).toEqual(['one.png', 'two.jpg']);

    uploads.calls[0]!.onProgress(0.4);
    expect(await screen.findByRole('progressbar', { name: t.upload.progress })).toHaveAttribute('aria-valuenow', '40');
    expect(screen.getByRole('button', { name: t.app.save })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: t.app.save }));
    expect(uploads.calls).toHaveLength(1);
  });
});

describe('create-video form', () => {
  it('starts at 1 and says what is missing', async () => {
    await renderCreateForm();
    const count = screen.getByLabelText(t.createVideo.count);
    expect(count).toHaveValue(1);
    expect(count).toHaveAttribute('placeholder', t.createVideo.countPlaceholder);
    await userEvent.clear(count);
    await userEvent.click(screen.getByRole('button', { name: t.createVideo.submit }));
    expect(await screen.findByText(t.createVideo.countRequired)).toBeInTheDocument();
    expect(screen.getByText(t.createVideo.atLeastOne)).toBeInTheDocument();
    expect(uploads.calls).toEqual([]);
  });

  it('refuses a count that is not a whole number of at least 1', async () => {
    await renderCreateForm();
    const count = screen.getByLabelText(t.createVideo.count);
    await userEvent.clear(count);
    await userEvent.type(count, '0');
    await userEvent.click(screen.getByRole('button', { name: t.createVideo.submit }));
    expect(await screen.findByText(t.createVideo.countRange(50))).toBeInTheDocument();
  });

  it('sends countVideo, every image and the one video, showing the frame preview and the progress', async () => {
    const { container } = await renderCreateForm();
    const count = screen.getByLabelText(t.createVideo.count);
    await userEvent.clear(count);
    await userEvent.type(count, '3');
    await pickVideo(container);
    expect(await screen.findByRole('img', { name: t.createVideo.preview })).toHaveAttribute('src', 'data:image/jpeg;base64,AAAA');

    await userEvent.click(screen.getByRole('button', { name: t.createVideo.submit }));
    await waitFor(() => expect(uploads.calls).toHaveLength(1));
    expect(uploads.calls[0]!.path).toBe('/create-video/create');
    expect(uploads.calls[0]!.form.get('countVideo')).toBe('3');
    expect(uploads.calls[0]!.form.get('photoIds')).toBe('[3,2]');
    expect((uploads.calls[0]!.form.get('file') as File).name).toBe('clip.mp4');
    uploads.calls[0]!.onProgress(0.75);
    expect(await screen.findByRole('progressbar', { name: t.createVideo.sourceProgress('clip.mp4') })).toHaveAttribute(
      'aria-valuenow',
      '75',
    );
    expect(screen.getByRole('progressbar', { name: t.upload.progress })).toHaveAttribute('aria-valuenow', '75');
    expect(screen.getByRole('button', { name: t.createVideo.submit })).toBeDisabled();
  });

  it('offers every image of the operator, each chosen, and sends only those still chosen', async () => {
    const { container } = await renderCreateForm();
    const boxes = screen.getAllByRole('checkbox');
    expect(boxes.map((box) => [box.getAttribute('aria-label'), (box as HTMLInputElement).checked])).toEqual([
      [t.photos.image(3), true],
      [t.photos.image(2), true],
    ]);
    expect(screen.getByText(t.createVideo.backgroundsChosen(2, 2))).toBeInTheDocument();

    await userEvent.click(screen.getByRole('checkbox', { name: t.photos.image(3) }));
    expect(screen.getByText(t.createVideo.backgroundsChosen(1, 2))).toBeInTheDocument();
    await pickVideo(container);
    await userEvent.click(screen.getByRole('button', { name: t.createVideo.submit }));
    await waitFor(() => expect(uploads.calls).toHaveLength(1));
    expect(uploads.calls[0]!.form.get('photoIds')).toBe('[2]');
  });

  it('refuses to send with no image chosen, and says so until one is chosen again', async () => {
    const { container } = await renderCreateForm();
    await pickVideo(container);
    for (const image of images) await userEvent.click(screen.getByRole('checkbox', { name: t.photos.image(image.id) }));
    await userEvent.click(screen.getByRole('button', { name: t.createVideo.submit }));
    expect(await screen.findByText(t.createVideo.backgroundsRequired)).toBeInTheDocument();
    expect(uploads.calls).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: t.createVideo.chooseAll }));
    expect(screen.queryByText(t.createVideo.backgroundsRequired)).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: t.createVideo.chooseNone }));
    expect(screen.getByText(t.createVideo.backgroundsRequired)).toBeInTheDocument();
    expect(screen.getAllByRole('checkbox').every((box) => !(box as HTMLInputElement).checked)).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: t.createVideo.submit }));
    expect(uploads.calls).toEqual([]);
  });

  it("tells an operator without images that the blurred video becomes the background, links the upload, and sends SPEC's shape", async () => {
    const { container } = await renderCreateForm([]);
    expect(screen.getByRole('status')).toHaveTextContent(t.createVideo.noBackgrounds);
    expect(screen.getByRole('link', { name: t.createVideo.uploadBackgrounds })).toHaveAttribute('href', '/photos/create');
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
    await pickVideo(container);
    await userEvent.click(screen.getByRole('button', { name: t.createVideo.submit }));
    await waitFor(() => expect(uploads.calls).toHaveLength(1));
    expect([...uploads.calls[0]!.form.keys()].sort()).toEqual(['countVideo', 'file']);
    expect(screen.queryByText(t.createVideo.backgroundsRequired)).not.toBeInTheDocument();
  });
});
