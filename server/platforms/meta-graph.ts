import type { PlatformError } from './errors';
import type { VideoStats } from './types';

/**
 * What Instagram's and Facebook's connectors share of Meta's Graph API: its version, its form
 * bodies, and its batch answers. Each connector keeps its own reading of an error, since the codes
 * that mean a cap or a throttle differ between them.
 */
export const graphVersion = 'v22.0';

export const graphForm = (params: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: () => new URLSearchParams(params).toString(),
});

/** "does not exist": the object was deleted on the platform, so its figures stay as they were. */
const unknownObject = 100;

/**
 * The figures of a batch of insight reads ("Batch Requests",
 * developers.facebook.com/docs/graph-api/batch-requests): an answer per call, in the calls' order,
 * each `{code, body}` with its body a JSON-encoded string, or null for a call that did not run.
 */
export function batchFigures(
  answer: unknown,
  remoteIds: string[],
  readError: (status: number, body: any, headers: Headers) => PlatformError,
  figuresOf: (body: any) => VideoStats,
): Map<string, VideoStats> {
  const found = new Map<string, VideoStats>();
  const results: ({ code: number; body: string } | null)[] = Array.isArray(answer) ? answer : [];
  results.forEach((result, index) => {
    if (!result) return;
    let body: any;
    try {
      body = JSON.parse(result.body);
    } catch {
      body = null;
    }
    if (result.code !== 200) {
      if (body?.error?.code === unknownObject) return;
      throw readError(result.code, body, new Headers());
    }
    found.set(remoteIds[index]!, figuresOf(body));
  });
  return found;
}
