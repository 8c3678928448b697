import { useCallback, useEffect } from 'react';
import { useLocation } from 'wouter';
import { useSelector } from '@xstate/react';
import type { AccountBody, PlatformName } from '../../lib/contract';
import { profileConnectMachine } from '../../machines/profile-connect-machine';
import { useScreenActor } from '../../components/use-screen-actor';
import { accountHref, accountTexts } from './account-record';

/**
 * The profile form's 'Підключити …': `connect(platform, body)` saves `body` first when given (a new
 * profile, or a saved one's unsaved changes), then opens the platform's consent page. When the
 * page cannot be had after a save, a new profile opens as saved and a saved one shows what was kept.
 */
export function useProfileConnect(accountId: number | undefined, onSaved?: () => void) {
  const actor = useScreenActor(profileConnectMachine, { id: 'profile-connect' });
  const [, navigate] = useLocation();

  useEffect(() => {
    const consent = actor.on('consent', (event) => window.location.assign(event.url));
    const saved = actor.on('saved', (event) => (accountId === undefined ? navigate(accountHref({ id: event.accountId })) : onSaved?.()));
    return () => {
      consent.unsubscribe();
      saved.unsubscribe();
    };
  }, [actor, accountId, navigate, onSaved]);

  const connecting = useSelector(actor, (snapshot) => !snapshot.matches('idle'));
  const connect = useCallback(
    (platform: PlatformName, body: AccountBody | null) => {
      const save =
        body === null
          ? undefined
          : accountId === undefined
            ? { method: 'POST' as const, path: '/accounts', body, successText: accountTexts.created }
            : { method: 'PATCH' as const, path: `/accounts/${accountId}`, body, successText: accountTexts.updated };
      actor.send({ type: 'connect', request: { platform, accountId, save } });
    },
    [actor, accountId],
  );
  return { connecting, connect };
}
