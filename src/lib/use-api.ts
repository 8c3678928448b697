import { useCallback, useEffect, useState } from 'react';
import { api } from './api';

export interface ApiState<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

/** GETs `path` (null waits) and again whenever it changes or `reload` is called. */
export function useApi<T>(path: string | null): ApiState<T> {
  const [state, setState] = useState<{ data: T | undefined; error: unknown; loading: boolean }>({
    data: undefined,
    error: undefined,
    loading: path !== null,
  });
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    if (path === null) return;
    let current = true;
    setState((previous) => ({ ...previous, loading: true }));
    api<T>('GET', path).then(
      (data) => current && setState({ data, error: undefined, loading: false }),
      (error) => current && setState({ data: undefined, error, loading: false }),
    );
    return () => {
      current = false;
    };
  }, [path, generation]);

  const reload = useCallback(() => setGeneration((value) => value + 1), []);
  return { ...state, reload };
}

/** The `?page=N` of the current URL, 1 when absent or invalid. */
export function pageFromSearch(search: string): number {
  const page = Number(new URLSearchParams(search).get('page'));
  return Number.isInteger(page) && page >= 1 ? page : 1;
}
