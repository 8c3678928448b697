import { useEffect, useRef } from 'react';
import { useActorRef } from '@xstate/react';
import { pollingMachine } from '../machines/polling-machine';

/** Calls `onRefresh` every `intervalMs` while the tab is visible, for as long as the caller is mounted. */
export function usePolling(intervalMs: number, onRefresh: () => void): void {
  const polling = useActorRef(pollingMachine, { input: { intervalMs } });
  const onRefreshRef = useRef(onRefresh);
  onRefreshRef.current = onRefresh;

  useEffect(() => {
    const subscription = polling.on('refresh', () => onRefreshRef.current());
    return () => subscription.unsubscribe();
  }, [polling]);
}
