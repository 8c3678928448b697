import { vi } from 'vitest';
import toast from 'react-hot-toast';

export interface Reply {
  status?: number;
  body?: unknown;
}

/**
 * Stands in for the server behind the real API client: every request is written down as
 * `METHOD /api/path body`, and `answer` says what the server replies to it.
 */
export function apiDouble(answer: (request: string) => Reply | Promise<Reply>) {
  const asked: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const request = `${init.method} ${url}${typeof init.body === 'string' ? ` ${init.body}` : ''}`;
      asked.push(request);
      const { status = 200, body } = await answer(request);
      const json = body !== undefined;
      return new Response(json ? JSON.stringify(body) : null, { status, headers: json ? { 'content-type': 'application/json' } : {} });
    }),
  );
  return asked;
}

/** A reply the test gives later, to see what the machine shows meanwhile. */
export function heldReply() {
  let give!: (reply: Reply) => void;
  const reply = new Promise<Reply>((resolve) => (give = resolve));
  return { reply, give };
}

/** Records the success and error toasts a machine shows, as 'success …' and 'error …', instead of drawing them. */
export function recordToasts(shown: string[]) {
  vi.spyOn(toast, 'success').mockImplementation((message) => (shown.push(`success ${message}`), ''));
  vi.spyOn(toast, 'error').mockImplementation((message) => (shown.push(`error ${message}`), ''));
}
