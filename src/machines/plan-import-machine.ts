import { assign, emit, fromPromise, setup } from 'xstate';
import toast from 'react-hot-toast';
import { api, download, formDataOf, upload } from '../lib/api';
import type { PlanCommitRequest, PlanCommitted, PlanPreview } from '../lib/contract';
import * as t from '../lib/i18n';
import { saveFile } from '../lib/save-file';
import { toastErrors } from '../lib/toasts';

/**
 * The calendar's plan import (issue 43.3): a file chosen → checked by the server (its upload's
 * progress shown) → the preview, each row ok or refused with its line and reason → 'Зберегти N'
 * saves the new rows in one go, and the possible duplicates too when the operator ticks them in
 * (issue 43.5) → saved, the outcome emitted so the calendar reloads. A refused
 * check or save keeps what was there with the server's words. Beside it, the template's download.
 */

export interface PlanImportContext {
  fileName: string | null;
  /** Share of the file sent so far, 0..1. */
  progress: number;
  preview: PlanPreview | null;
  /** The operator's choice to save the preview's possible duplicates as well. */
  allowDuplicates: boolean;
  /** How many posts the last confirm saved. */
  saved: number | null;
  error: unknown;
}

export type PlanImportEvent =
  | { type: 'file.pick'; file: File }
  | { type: 'upload.progress'; fraction: number }
  | { type: 'duplicates.allow'; allow: boolean }
  | { type: 'plan.save' }
  | { type: 'template.download' };

export type PlanImportEmitted = { type: 'plan.saved'; saved: number };

/** The rows a confirm would write: the ok ones not already in the calendar as they are. */
export const newRows = (preview: PlanPreview | null) => (preview ? preview.summary.ok - preview.summary.unchanged : 0);

/** The refused rows that are possible duplicates only, which the operator may save all the same. */
export const duplicateRows = (preview: PlanPreview | null) => preview?.rows.filter((row) => row.duplicate).length ?? 0;

/** What 'Зберегти N' saves: the new rows, and the possible duplicates when allowed. */
export const rowsToSave = ({ preview, allowDuplicates }: Pick<PlanImportContext, 'preview' | 'allowDuplicates'>) =>
  newRows(preview) + (allowDuplicates ? duplicateRows(preview) : 0);

export const planImportMachine = setup({
  types: {
    context: {} as PlanImportContext,
    events: {} as PlanImportEvent,
    emitted: {} as PlanImportEmitted,
  },
  actors: {
    check: fromPromise<PlanPreview, { file: File; onProgress: (fraction: number) => void }>(({ input }) =>
      upload<PlanPreview>('/plans/preview', formDataOf({}, 'file', [input.file]), input.onProgress),
    ),
    commit: fromPromise<PlanCommitted, { planId: string; allowDuplicates: boolean }>(({ input }) =>
      api<PlanCommitted>(
        'POST',
        `/plans/${encodeURIComponent(input.planId)}/commit`,
        input.allowDuplicates ? ({ allowDuplicates: true } satisfies PlanCommitRequest) : undefined,
      ),
    ),
    template: fromPromise<void>(async ({ signal }) => saveFile(await download('/plans/template.csv', 'plan_template.csv', signal))),
  },
  actions: {
    'toast errors': (_, params: { error: unknown }) => toastErrors(params.error),
    // Plain actions, not assignments: an assignment may run more than once, and a toast must not.
    'toast saved': ({ context }) => {
      toast.success(t.plans.saved(context.saved ?? 0));
    },
  },
  guards: {
    'has rows to save': ({ context }) => rowsToSave(context) > 0,
  },
}).createMachine({
  id: 'planImport',
  type: 'parallel',
  context: { fileName: null, progress: 0, preview: null, allowDuplicates: false, saved: null, error: null },
  states: {
    flow: {
      initial: 'empty',
      on: {
        'file.pick': {
          target: '.checking',
          actions: assign({
            fileName: ({ event }) => event.file.name,
            preview: null,
            allowDuplicates: false,
            saved: null,
            error: null,
            progress: 0,
          }),
        },
      },
      states: {
        empty: {},
        checking: {
          on: { 'upload.progress': { actions: assign({ progress: ({ event }) => event.fraction }) } },
          invoke: {
            src: 'check',
            input: ({ event, self }) => ({
              file: (event as Extract<PlanImportEvent, { type: 'file.pick' }>).file,
              onProgress: (fraction: number) => self.send({ type: 'upload.progress', fraction }),
            }),
            onDone: { target: 'previewed', actions: assign({ preview: ({ event }) => event.output }) },
            onError: { target: 'empty', actions: assign({ error: ({ event }) => event.error, fileName: null }) },
          },
        },
        previewed: {
          on: {
            'duplicates.allow': { actions: assign({ allowDuplicates: ({ event }) => event.allow }) },
            'plan.save': { guard: 'has rows to save', target: 'saving' },
          },
        },
        saving: {
          invoke: {
            src: 'commit',
            input: ({ context }) => ({
              planId: context.preview!.planId,
              allowDuplicates: context.allowDuplicates && duplicateRows(context.preview) > 0,
            }),
            onDone: {
              target: 'saved',
              actions: [
                assign({ saved: ({ event }) => event.output.saved, error: null }),
                'toast saved',
                emit(({ event }) => ({ type: 'plan.saved' as const, saved: event.output.saved })),
              ],
            },
            onError: { target: 'previewed', actions: assign({ error: ({ event }) => event.error }) },
          },
        },
        saved: {},
      },
    },
    template: {
      initial: 'idle',
      states: {
        idle: { on: { 'template.download': 'downloading' } },
        downloading: {
          invoke: {
            src: 'template',
            onDone: 'idle',
            onError: { target: 'idle', actions: { type: 'toast errors', params: ({ event }) => ({ error: event.error }) } },
          },
        },
      },
    },
  },
});

export interface PlanExportContext {
  error: unknown;
}

export interface PlanExportRequest {
  from: string;
  to: string;
  accountId: number | null;
  groupId: number | null;
}

export type PlanExportEvent = { type: 'export'; request: PlanExportRequest };

/** The query of an export: the period, and the one profile or group when one is picked. */
export function planExportPath({ from, to, accountId, groupId }: PlanExportRequest): string {
  const query = new URLSearchParams({ from, to });
  if (accountId !== null) query.set('accountId', String(accountId));
  else if (groupId !== null) query.set('groupId', String(groupId));
  return `/plans/export.csv?${query}`;
}

/** The calendar's plan export (issue 43.4): the period's CSV downloaded, or the server's refusal shown. */
export const planExportMachine = setup({
  types: {
    context: {} as PlanExportContext,
    events: {} as PlanExportEvent,
  },
  actors: {
    exportCsv: fromPromise<void, PlanExportRequest>(async ({ input, signal }) =>
      saveFile(await download(planExportPath(input), `plan_${input.from}_${input.to}.csv`, signal)),
    ),
  },
}).createMachine({
  id: 'planExport',
  initial: 'idle',
  context: { error: null },
  states: {
    idle: { on: { export: 'downloading' } },
    downloading: {
      entry: assign({ error: null }),
      invoke: {
        src: 'exportCsv',
        input: ({ event }) => (event as PlanExportEvent).request,
        onDone: 'idle',
        onError: { target: 'idle', actions: assign({ error: ({ event }) => event.error }) },
      },
    },
  },
});
