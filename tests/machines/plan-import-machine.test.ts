import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { ApiError } from '../../src/lib/api';
import type { PlanPreview } from '../../src/lib/contract';
import * as t from '../../src/lib/i18n';
import {
  duplicateRows,
  planExportPath,
  planImportMachine,
  rowsToSave,
  type PlanImportEmitted,
} from '../../src/machines/plan-import-machine';
import { deferredActors } from './deferred-actors';
import { recordToasts } from './api-double';

const file = new File(['ID відео;Профіль;Платформа\r\n'], 'plan.csv', { type: 'text/csv' });
const preview = (ok: number, refused: number, unchanged: number): PlanPreview => ({
  planId: '0b6f4c1e-8f3e-4a43-9d55-1c1e5f1e2a10',
  rows: [
    { line: 2, ok: true, state: 'new', videoId: 4, accountId: 1, platform: 'tiktok', date: '2026-12-02T08:00:00.000Z' },
    { line: 3, ok: false, state: 'refused', reason: 'Рядок 3: дата 30.11.2026 12:00 уже минула' },
  ],
  summary: { ok, refused, unchanged },
  expiresAt: '2026-12-01T09:17:00.000Z',
});

function start() {
  const calls = deferredActors(['check', 'commit', 'template'] as const);
  const actor = createActor(planImportMachine.provide({ actors: calls.actors }));
  const emitted: PlanImportEmitted[] = [];
  actor.on('*', (event) => emitted.push(event));
  actor.start();
  return { actor, calls, emitted, flow: () => (actor.getSnapshot().value as { flow: string }).flow };
}

describe('plan import machine', () => {
  afterEach(() => vi.restoreAllMocks());

  it('goes empty → checking (its progress shown) → previewed → saving → saved, and says the calendar has new posts', async () => {
    const shown: string[] = [];
    recordToasts(shown);
    const { actor, calls, emitted, flow } = start();
    expect(flow()).toBe('empty');
    actor.send({ type: 'file.pick', file });
    expect(flow()).toBe('checking');
    const sent = calls.started[0]!.input as { file: File; onProgress: (fraction: number) => void };
    expect(sent.file).toBe(file);
    sent.onProgress(0.5);
    expect(actor.getSnapshot().context).toMatchObject({ fileName: 'plan.csv', progress: 0.5 });
    await calls.resolve('check', preview(1, 1, 0));
    expect(flow()).toBe('previewed');
    actor.send({ type: 'plan.save' });
    expect(flow()).toBe('saving');
    expect(calls.started[1]).toEqual({ name: 'commit', input: { planId: '0b6f4c1e-8f3e-4a43-9d55-1c1e5f1e2a10', allowDuplicates: false } });
    await calls.resolve('commit', { saved: 1 });
    expect(flow()).toBe('saved');
    expect(emitted).toEqual([{ type: 'plan.saved', saved: 1 }]);
    expect(shown).toEqual([`success ${t.plans.saved(1)}`]);
  });

  it('saves the possible duplicates too only when the operator ticks them in, counting them in what it saves', async () => {
    const { actor, calls, flow } = start();
    actor.send({ type: 'file.pick', file });
    const flagged = preview(1, 2, 0);
    flagged.rows.push({
      line: 4,
      ok: false,
      state: 'refused',
      duplicate: true,
      reason: 'Рядок 4: можливий дубль — профіль #1 Ранок: проміжок 30 хв між публікаціями профілю',
      videoId: 5,
      accountId: 1,
      platform: 'tiktok',
      date: '2026-12-02T08:10:00.000Z',
    });
    await calls.resolve('check', flagged);
    expect(duplicateRows(flagged)).toBe(1);
    expect(rowsToSave(actor.getSnapshot().context)).toBe(1);
    actor.send({ type: 'duplicates.allow', allow: true });
    expect(rowsToSave(actor.getSnapshot().context)).toBe(2);
    actor.send({ type: 'plan.save' });
    expect(flow()).toBe('saving');
    expect(calls.started[1]).toEqual({ name: 'commit', input: { planId: flagged.planId, allowDuplicates: true } });
    await calls.resolve('commit', { saved: 2 });

    // Another file starts without the choice: each plan's duplicates are allowed on their own.
    actor.send({ type: 'file.pick', file });
    expect(actor.getSnapshot().context.allowDuplicates).toBe(false);
    await calls.resolve('check', flagged);
    actor.send({ type: 'plan.save' });
    expect(calls.started[3]).toEqual({ name: 'commit', input: { planId: flagged.planId, allowDuplicates: false } });
  });

  it('saves a plan of possible duplicates alone once they are allowed, and nothing before', async () => {
    const { actor, calls, flow } = start();
    actor.send({ type: 'file.pick', file });
    await calls.resolve('check', {
      ...preview(0, 1, 0),
      rows: [{ line: 2, ok: false, state: 'refused', duplicate: true, reason: 'Рядок 2: можливий дубль' }],
    });
    actor.send({ type: 'plan.save' });
    expect(flow()).toBe('previewed');
    actor.send({ type: 'duplicates.allow', allow: true });
    actor.send({ type: 'plan.save' });
    expect(flow()).toBe('saving');
  });

  it('offers nothing to save when every ok row is already in the calendar as it is', async () => {
    const { actor, calls, flow } = start();
    actor.send({ type: 'file.pick', file });
    await calls.resolve('check', preview(3, 0, 3));
    actor.send({ type: 'plan.save' });
    expect(flow()).toBe('previewed');
    expect(calls.started.map((call) => call.name)).toEqual(['check']);
  });

  it('keeps the server’s words after a refused check or save, and checks another file from the preview', async () => {
    const { actor, calls, flow } = start();
    const unreadable = new ApiError(400, [t.plans.fileUnreadable]);
    actor.send({ type: 'file.pick', file });
    await calls.reject('check', unreadable);
    expect(flow()).toBe('empty');
    expect(actor.getSnapshot().context).toMatchObject({ error: unreadable, fileName: null });

    actor.send({ type: 'file.pick', file });
    expect(actor.getSnapshot().context.error).toBeNull();
    await calls.resolve('check', preview(1, 1, 0));
    actor.send({ type: 'plan.save' });
    const expired = new ApiError(409, [t.plans.previewExpired]);
    await calls.reject('commit', expired);
    expect(flow()).toBe('previewed');
    expect(actor.getSnapshot().context.error).toBe(expired);
    actor.send({ type: 'file.pick', file });
    expect(flow()).toBe('checking');
    expect(actor.getSnapshot().context.preview).toBeNull();
  });

  it('downloads the template beside whatever the import is doing', async () => {
    const { actor, calls, flow } = start();
    actor.send({ type: 'file.pick', file });
    actor.send({ type: 'template.download' });
    expect(actor.getSnapshot().value).toEqual({ flow: 'checking', template: 'downloading' });
    await calls.resolve('template', undefined);
    expect(actor.getSnapshot().value).toEqual({ flow: flow(), template: 'idle' });
  });

  it('asks the export for the period and the one profile or group picked', () => {
    expect(planExportPath({ from: '2026-12-07', to: '2026-12-13', accountId: null, groupId: null })).toBe(
      '/plans/export.csv?from=2026-12-07&to=2026-12-13',
    );
    expect(planExportPath({ from: '2026-12-07', to: '2026-12-13', accountId: 5, groupId: null })).toBe(
      '/plans/export.csv?from=2026-12-07&to=2026-12-13&accountId=5',
    );
    expect(planExportPath({ from: '2026-12-07', to: '2026-12-13', accountId: null, groupId: 3 })).toBe(
      '/plans/export.csv?from=2026-12-07&to=2026-12-13&groupId=3',
    );
  });
});
