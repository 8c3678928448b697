import type { ErrorResponse, LoginResponse, RefreshResponse, SessionUser } from './contract';
import * as t from './i18n';

/** The one backend base address; the SPA is served by the same server. */
export const apiBase = '/api';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly messages: string[],
  ) {
    super(messages.join('\n'));
  }
}

/** How the client reaches the session: the auth machine provides it at start-up. */
export interface SessionBridge {
  accessToken(): string | null;
  /** Called after a 401; resolves with a fresh access token, or null when the session is over. */
  afterUnauthorized(tokenUsed: string): Promise<string | null>;
}

let session: SessionBridge = { accessToken: () => null, afterUnauthorized: async () => null };

export function connectSession(bridge: SessionBridge): void {
  session = bridge;
}

interface RequestOptions {
  body?: unknown;
  token?: string | null;
  signal?: AbortSignal;
}

async function send(method: string, path: string, { body, token, signal }: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  return fetch(`${apiBase}${path}`, { method, headers, body: payload, credentials: 'include', signal });
}

async function readResponse<T>(response: Response): Promise<T> {
  const isJson = response.headers.get('content-type')?.includes('application/json');
  const data = isJson ? await response.json() : undefined;
  if (!response.ok) {
    const message = (data as ErrorResponse | undefined)?.message;
    const messages = Array.isArray(message) ? message : message ? [message] : [t.toast.serverError(response.status)];
    throw new ApiError(response.status, messages);
  }
  return data as T;
}

/** Bearer token, and on a 401 one retry after the session is refreshed. */
async function sendAsSession(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<Response> {
  const token = session.accessToken();
  const response = await send(method, path, { body, token, signal });
  if (response.status === 401 && token) {
    const freshToken = await session.afterUnauthorized(token);
    if (freshToken) return send(method, path, { body, token: freshToken, signal });
  }
  return response;
}

/** GET answers asked for before their screen was drawn (`prefetch`), by path. */
const prefetched = new Map<string, Promise<Response | null>>();

/** How long a prefetched answer waits for its screen: past that, the screen asks afresh. */
const prefetchedForMs = 10_000;

/**
 * Asks for `path` now, with the stored token, for the screen about to be drawn: the first `api` GET
 * of that path in the next 10 s takes this answer rather than asking again. Only a successful answer
 * is taken; any other (a stored token the server refuses, an error) is asked for again as usual.
 */
export function prefetch(path: string): void {
  const token = session.accessToken();
  if (!token || prefetched.has(path)) return;
  prefetched.set(
    path,
    send('GET', path, { token }).catch(() => null),
  );
  setTimeout(() => prefetched.delete(path), prefetchedForMs);
}

async function takePrefetched(path: string): Promise<Response | null> {
  const early = prefetched.get(path);
  if (!early) return null;
  prefetched.delete(path);
  const response = await early;
  return response?.ok ? response : null;
}

/** A product call: Bearer token, and on a 401 one retry after the session is refreshed. */
export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const early = method === 'GET' ? await takePrefetched(path) : null;
  return readResponse<T>(early ?? (await sendAsSession(method, path, body)));
}

export interface DownloadedFile {
  blob: Blob;
  /** The name the server gave it (Content-Disposition), else `fallbackName`. */
  name: string;
}

/**
 * A file the API answers (the statistics CSV), fetched as a product call is, with the Bearer
 * token that a plain link could not send; a refused one throws the server's messages. `signal`
 * stops it.
 */
export async function download(path: string, fallbackName: string, signal?: AbortSignal): Promise<DownloadedFile> {
  const response = await sendAsSession('GET', path, undefined, signal);
  // A refusal is JSON: readResponse throws its messages.
  if (!response.ok) return readResponse(response);
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? fallbackName;
  return { blob: await response.blob(), name };
}

/** Sends multipart form data with XMLHttpRequest, the one browser API that reports upload progress. */
function sendWithProgress(path: string, form: FormData, token: string | null, onProgress: (fraction: number) => void): Promise<Response> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${apiBase}${path}`);
    xhr.withCredentials = true;
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      const nullBody = xhr.status === 204 || xhr.status === 304;
      const headers = { 'content-type': xhr.getResponseHeader('content-type') ?? '' };
      resolve(new Response(nullBody ? null : xhr.responseText, { status: xhr.status, statusText: xhr.statusText, headers }));
    };
    xhr.onerror = () => reject(new ApiError(0, [t.upload.connectionLost]));
    xhr.onabort = () => reject(new ApiError(0, [t.upload.connectionLost]));
    xhr.send(form);
  });
}

/** A form's multipart body: fields first, so the server can refuse a bad count before it streams a large file. */
export function formDataOf(fields: Record<string, string>, fileField: string, files: File[]): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const file of files) form.append(fileField, file, file.name);
  return form;
}

/** An upload with progress (0..1), the same Bearer token, and the same one retry after a 401 refresh. */
export async function upload<T>(path: string, form: FormData, onProgress: (fraction: number) => void): Promise<T> {
  const token = session.accessToken();
  const response = await sendWithProgress(path, form, token, onProgress);
  if (response.status === 401 && token) {
    const freshToken = await session.afterUnauthorized(token);
    if (freshToken) {
      onProgress(0);
      return readResponse<T>(await sendWithProgress(path, form, freshToken, onProgress));
    }
  }
  return readResponse<T>(response);
}

/** Auth calls go around the retry: they are what the retry itself uses. */
export const authApi = {
  async logIn(credentials: { login: string; password: string }): Promise<LoginResponse> {
    return readResponse(await send('POST', '/auth/login', { body: credentials }));
  },
  async refresh(refreshToken: string): Promise<RefreshResponse> {
    return readResponse(await send('POST', '/auth/refresh', { body: { refreshToken } }));
  },
  async me(accessToken: string): Promise<{ user: SessionUser }> {
    return readResponse(await send('GET', '/auth/me', { token: accessToken }));
  },
  async logOut(refreshToken: string): Promise<void> {
    await readResponse(await send('POST', '/auth/logout', { body: { refreshToken } }));
  },
};

/**
 * What to tell the operator about a failed call: the server's messages, else that no answer came
 * (fetch rejects with a TypeError, 'Failed to fetch' in Chromium), else a generic line. Never the
 * browser's or a library's English.
 */
export function errorMessages(error: unknown): string[] {
  if (error instanceof ApiError) return error.messages;
  if (error instanceof TypeError) return [t.toast.connectionLost];
  return [t.toast.genericError];
}
