import { useCallback, useEffect, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { useSelector } from '@xstate/react';
import type { Paged } from '../lib/contract';
import { listQuery, pageFromSearch } from '../lib/pagination';
import { resourceMachine, type SaveRequest } from '../machines/resource-machine';
import { useScreenActor } from './use-screen-actor';

interface ResourceOptions<T> {
  /** Data already at hand for `path` null (a first page that came with a detail). */
  data?: T;
  /** Refresh every this many ms while the tab is visible. */
  pollMs?: number;
  /** After a save the server accepted, with its answer. */
  onSaved?: (output: unknown) => void;
}

/**
 * A screen's data through its resource machine (`id` names it in the inspector): what is shown,
 * and the events that reload it, show what another write answered, save a form or delete a row.
 * A new `path` loads that instead.
 */
export function useResource<T>(id: string, path: string | null, { data: initial, pollMs, onSaved }: ResourceOptions<T> = {}) {
  const actor = useScreenActor(resourceMachine, { id, input: { path, data: initial, pollMs } });

  useEffect(() => {
    if (path !== null && path !== actor.getSnapshot().context.path) actor.send({ type: 'path.change', path });
  }, [actor, path]);

  useEffect(() => {
    if (!onSaved) return;
    const subscription = actor.on('saved', (event) => onSaved(event.output));
    return () => subscription.unsubscribe();
  }, [actor, onSaved]);

  const data = useSelector(actor, (snapshot) => snapshot.context.data) as T | undefined;
  const error = useSelector(actor, (snapshot) => snapshot.context.error);
  const loading = useSelector(actor, (snapshot) => snapshot.matches('loading'));
  const saving = useSelector(actor, (snapshot) => snapshot.matches('saving'));
  const reload = useCallback(() => actor.send({ type: 'reload' }), [actor]);
  const save = useCallback((request: SaveRequest) => actor.send({ type: 'save', request }), [actor]);
  const remove = useCallback((removed: string, successText: string) => actor.send({ type: 'remove', path: removed, successText }), [actor]);
  const show = useCallback((shown: T) => actor.send({ type: 'show', data: shown }), [actor]);
  return { data, error, loading, saving, reload, save, remove, show };
}

/** A list screen's page: `?page=N` and the filters of the URL, loaded from `${base}?page=N&…` (with its deletions). */
export function useListPage<T>(id: string, base: string, options: { pollMs?: number } = {}) {
  const search = useSearch();
  const page = pageFromSearch(search);
  return { page, ...useResource<Paged<T>>(id, `${base}?${listQuery(search)}`, options) };
}

/** A paged list whose first page came with a detail response; other pages are loaded when chosen. */
export function usePagedPart<T>(id: string, first: Paged<T>, pathOf: (page: number) => string) {
  const [page, setPage] = useState(1);
  return { page, setPage, ...useResource<Paged<T>>(id, pathOf(page), { data: first }) };
}

interface RecordTexts {
  created: string;
  updated: string;
}

/**
 * A record's form: the record at `${collection}/${recordId}` (nothing to load for a new one), saved
 * with PATCH there or POST to `collection` with the matching toast; a new record then opens at `hrefOf(saved)`.
 */
export function useRecordForm<Record, Saved extends { id: number } = { id: number }>(
  id: string,
  collection: string,
  recordId: string | undefined,
  { created, updated }: RecordTexts,
  hrefOf: (saved: Saved) => string,
) {
  const [, navigate] = useLocation();
  const onSaved = useCallback(
    (output: unknown) => {
      if (recordId === undefined) navigate(hrefOf(output as Saved));
    },
    [recordId, navigate, hrefOf],
  );
  const record = useResource<Record>(id, recordId === undefined ? null : `${collection}/${recordId}`, { onSaved });
  const { save } = record;
  const submit = useCallback(
    (body: unknown) =>
      save(
        recordId === undefined
          ? { method: 'POST', path: collection, body, successText: created }
          : { method: 'PATCH', path: `${collection}/${recordId}`, body, successText: updated },
      ),
    [save, recordId, collection, created, updated],
  );
  return { ...record, submit };
}
