import { waitFor } from '@testing-library/react';
import { it, vi } from 'vitest';

interface Call {
  method: string;
  path: string;
  body: unknown;
  respond: (status: number, body?: unknown) => void;
}

/**
 * Stands in for the server behind `fetch`: every request waits until the test answers it, so a
 * model step decides what the server says and when. Asserting on what is still pending tells what
 * the screen has asked for.
 */
export function serverDouble() {
  const calls: Call[] = [];
  const open = new Set<Call>();
  vi.stubGlobal(
    'fetch',
    vi.fn(
      (input: RequestInfo | URL, init: RequestInit = {}) =>
        new Promise<Response>((resolve) => {
          const call: Call = {
            method: init.method ?? 'GET',
            path: String(input).replace(/^\/api/, ''),
            body: typeof init.body === 'string' ? JSON.parse(init.body) : init.body,
            respond(status, body) {
              open.delete(call);
              const payload = body === undefined || status === 204 ? null : JSON.stringify(body);
              resolve(new Response(payload, { status, headers: payload === null ? {} : { 'content-type': 'application/json' } }));
            },
          };
          calls.push(call);
          open.add(call);
        }),
    ),
  );
  const describeOpen = () => [...open].map((call) => `${call.method} ${call.path}`);
  return {
    calls,
    /** `METHOD path` of every request not answered yet. */
    pending: describeOpen,
    /** Answers the request `method path` once the screen has made it. */
    async answer(method: string, path: string, status: number, body?: unknown) {
      let found: Call | undefined;
      await waitFor(() => {
        found = [...open].find((call) => call.method === method && call.path === path);
        if (!found) throw new Error(`no request ${method} ${path} is waiting; waiting: ${JSON.stringify(describeOpen())}`);
      });
      found!.respond(status, body);
    },
  };
}

export type ServerDouble = ReturnType<typeof serverDouble>;

/** The server's error body, as the API answers it. */
export const errorBody = (statusCode: number, message: string | string[]) => ({ statusCode, error: 'Error', message });

/** A model path as the steps an operator takes, e.g. `done.loadRequest → group.pick → form.submit`. */
export function describePath(path: { steps: Array<{ event: { type: string } }> }): string {
  return path.steps
    .slice(1)
    .map((step) => step.event.type.replace(/^xstate\./, '').replace(/\.actor\./, '.'))
    .join(' → ');
}

interface WalkablePath<Options> {
  steps: Array<{ event: { type: string }; state: { value: unknown } }>;
  test(options: Options): unknown;
}

/** Every state the paths pass through, as sorted JSON: what a "reaches every state" test compares. */
export function statesReached(paths: Array<{ steps: Array<{ state: { value: unknown } }> }>): string[] {
  return [...new Set(paths.flatMap((path) => path.steps.map((step) => JSON.stringify(step.state.value))))].sort();
}

/** One test per path, walking it through the screen: the path's events are user actions and server answers, its states the checks. */
export function testEachPath<Options>(paths: WalkablePath<Options>[], options: Options) {
  for (const path of paths) {
    it(
      describePath(path),
      async () => {
        await path.test(options);
      },
      30_000,
    );
  }
}
