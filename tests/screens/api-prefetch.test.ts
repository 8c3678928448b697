import { afterEach, expect, it, vi } from 'vitest';
import { api, connectSession, prefetch } from '../../src/lib/api';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  connectSession({ accessToken: () => null, afterUnauthorized: async () => null });
});

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** A fetch answering each call with the next of `answers`, recording the path and token of each. */
function fetchDouble(answers: Response[]) {
  const sent: { url: string; authorization: string | undefined }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      sent.push({ url, authorization: (init.headers as Record<string, string>).Authorization });
      return answers.shift()!;
    }),
  );
  return sent;
}

it('hands a prefetched answer to the first GET of its path, and asks again for the next', async () => {
  const sent = fetchDouble([json(200, { page: 1 }), json(200, { page: 1, again: true })]);
  connectSession({ accessToken: () => 'token-1', afterUnauthorized: async () => null });
  prefetch('/accounts?page=1');
  await expect(api('GET', '/accounts?page=1')).resolves.toEqual({ page: 1 });
  expect(sent).toEqual([{ url: '/api/accounts?page=1', authorization: 'Bearer token-1' }]);
  await expect(api('GET', '/accounts?page=1')).resolves.toEqual({ page: 1, again: true });
  expect(sent).toHaveLength(2);
});

it('asks again through the session when the stored token was refused', async () => {
  const sent = fetchDouble([
    json(401, { message: 'Потрібно увійти в систему' }),
    json(401, { message: 'Потрібно увійти в систему' }),
    json(200, { id: 7 }),
  ]);
  const afterUnauthorized = vi.fn(async () => 'token-2');
  connectSession({ accessToken: () => 'token-1', afterUnauthorized });
  prefetch('/create-video/request/a');
  await expect(api('GET', '/create-video/request/a')).resolves.toEqual({ id: 7 });
  expect(afterUnauthorized).toHaveBeenCalledWith('token-1');
  expect(sent.map((request) => request.authorization)).toEqual(['Bearer token-1', 'Bearer token-1', 'Bearer token-2']);
});

it('asks for nothing without a stored token', () => {
  const sent = fetchDouble([]);
  prefetch('/accounts?page=2');
  expect(sent).toEqual([]);
});

it('drops an answer its screen did not take within 10 s', async () => {
  vi.useFakeTimers();
  const sent = fetchDouble([json(200, { stale: true }), json(200, { stale: false })]);
  connectSession({ accessToken: () => 'token-1', afterUnauthorized: async () => null });
  prefetch('/accounts?page=3');
  await vi.advanceTimersByTimeAsync(10_000);
  await expect(api('GET', '/accounts?page=3')).resolves.toEqual({ stale: false });
  expect(sent).toHaveLength(2);
});
