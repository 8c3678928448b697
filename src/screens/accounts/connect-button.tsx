import { useCallback } from 'react';
import { PlugZap } from 'lucide-react';
import type { ConnectYouTubeResponse, PlatformConnection } from '../../lib/contract';
import { t } from '../../lib/i18n';
import { Button } from '../../components/button';
import { useResource } from '../../components/use-resource';
import styles from './account-screens.module.css';

type LinkPlatform = PlatformConnection['platform'];

/** What the form says of a platform's connection: whom it reaches, that it must be made again, or how long a pasted string lasts. */
export function connectionText(connection: PlatformConnection | undefined, now = Date.now()): string {
  if (!connection) return t.connections.notConnected;
  if (connection.state === 'revoked') return t.connections.reconnect;
  if (connection.method === 'oauth') return connection.name ? t.connections.connectedAs(connection.name) : t.connections.connected;
  const leftMs = connection.expiresAt ? new Date(connection.expiresAt).getTime() - now : 0;
  if (leftMs <= 0) return t.connections.pastedExpired;
  const minutes = Math.ceil(leftMs / 60_000);
  const left =
    minutes >= 48 * 60 ? t.connections.days(Math.floor(minutes / 1440)) : t.connections.hours(Math.floor(minutes / 60), minutes % 60);
  return t.connections.pastedLeft(left);
}

/**
 * A platform's connection state and the button that opens its consent page; the platform's
 * callback brings the browser back to this profile.
 */
export function ConnectPlatform({
  accountId,
  platform,
  connection,
}: {
  accountId: number;
  platform: LinkPlatform;
  connection: PlatformConnection | undefined;
}) {
  const name = t.platform.names[platform];
  const open = useCallback((output: unknown) => window.location.assign((output as ConnectYouTubeResponse).url), []);
  const link = useResource(`${platform}-link`, null, { onSaved: open });
  const needsConsent = !connection || connection.state === 'revoked' || connection.method !== 'oauth';
  const revoked = connection?.state === 'revoked';
  return (
    <div className={styles.connection}>
      <span className={revoked ? styles.connectionLost : styles.connectionState} role="status">
        {connectionText(connection)}
      </span>
      <Button
        variant={needsConsent ? 'primary' : 'secondary'}
        disabled={link.saving}
        onClick={() =>
          link.save({ method: 'POST', path: `/accounts/connect-${platform}/${accountId}`, failureText: t.connections.connect(name) })
        }
      >
        <PlugZap size={16} aria-hidden /> {revoked ? t.connections.reconnect : t.connections.connect(name)}
      </Button>
    </div>
  );
}
