import { afterEach, expect, it, vi } from 'vitest';
import { api, ApiError, connectSession, errorMessages, formDataOf, upload } from '../../src/lib/api';
import { xhrDouble } from '../fixtures/xhr-double';

afterEach(() => {
  vi.unstubAllGlobals();
  connectSession({ accessToken: () => null, afterUnauthorized: async () => null });
});

it('reports upload progress and sends the Bearer token', async () => {
  const sent = xhrDouble([{ status: 201, body: { id: 1 } }]);
  connectSession({ accessToken: () => 'token-1', afterUnauthorized: async () => null });
  const progress: number[] = [];
  const form = new FormData();
  await expect(upload('/photo-bg', form, (fraction) => progress.push(fraction))).resolves.toEqual({ id: 1 });
  expect(sent).toEqual([{ method: 'POST', url: '/api/photo-bg', authorization: 'Bearer token-1', body: form }]);
  expect(progress).toEqual([0.5, 1]);
});

it('after a 401 refreshes the session once and sends the form again with the new token', async () => {
  const sent = xhrDouble([
    { status: 401, body: { statusCode: 401, message: 'Потрібно увійти в систему' } },
    { status: 201, body: { id: 2 } },
  ]);
  const afterUnauthorized = vi.fn(async () => 'token-2');
  connectSession({ accessToken: () => 'token-1', afterUnauthorized });
  await expect(upload('/create-video/create', new FormData(), () => undefined)).resolves.toEqual({ id: 2 });
  expect(afterUnauthorized).toHaveBeenCalledWith('token-1');
  expect(sent.map((request) => request.authorization)).toEqual(['Bearer token-1', 'Bearer token-2']);
});

it("throws the server's messages when the refresh fails", async () => {
  xhrDouble([{ status: 401, body: { statusCode: 401, message: 'Потрібно увійти в систему' } }]);
  connectSession({ accessToken: () => 'token-1', afterUnauthorized: async () => null });
  const failure = upload('/photo-bg', new FormData(), () => undefined);
  await expect(failure).rejects.toBeInstanceOf(ApiError);
  await expect(failure).rejects.toMatchObject({ status: 401, messages: ['Потрібно увійти в систему'] });
});

it('puts the fields before the files in the multipart body, each file under the given field name', () => {
  const video = new File(['v'], 'clip.mp4', { type: 'video/mp4' });
  const form = formDataOf({ countVideo: '3' }, 'file', [video]);
  expect([...form.keys()]).toEqual(['countVideo', 'file']);
  expect(form.get('countVideo')).toBe('3');
  expect((form.get('file') as File).name).toBe('clip.mp4');
});

it("never shows the browser's English: a call with no answer says the connection is lost, a proxy's error page its status in Ukrainian", async () => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    }),
  );
  const lost = await api('GET', '/accounts').catch((error: unknown) => error);
  expect(errorMessages(lost)).toEqual(['Немає звʼязку із сервером: перевірте мережу й спробуйте ще раз']);

  vi.stubGlobal(
    'fetch',
    vi.fn(
      async () =>
        new Response('<html>Bad Gateway</html>', { status: 502, statusText: 'Bad Gateway', headers: { 'content-type': 'text/html' } }),
    ),
  );
  const refused = await api('GET', '/accounts').catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(ApiError);
  expect(errorMessages(refused)).toEqual(['Сервер не зміг відповісти (код 502): спробуйте ще раз']);
  expect(errorMessages(new SyntaxError('Unexpected token < in JSON'))).toEqual(['Сталася помилка']);
});
