import { PlugZap } from 'lucide-react';
import type { PlatformConnection, PlatformName } from '../../lib/contract';
import * as t from '../../lib/i18n';
import { Button } from '../../components/button';
import styles from './account-screens.module.css';

/**
 * What the form says of a platform's connection, in the state the page's header shows: that it must
 * be made again, why it does not work, whom it reaches, or how long a pasted string lasts.
 */
export function connectionText(connection: PlatformConnection | undefined, now = Date.now()): string {
  if (!connection) return t.connections.notConnected;
  if (connection.kind === 'revoked') return t.connections.reconnect;
  if (connection.kind) return t.health.stateWithReason(t.health.states[connection.state], t.health.kinds[connection.kind]);
  if (connection.method !== 'pasted') return connection.name ? t.connections.connectedAs(connection.name) : t.connections.connected;
  const leftMs = connection.expiresAt ? new Date(connection.expiresAt).getTime() - now : 0;
  if (leftMs <= 0) return t.connections.pastedExpired;
  const minutes = Math.ceil(leftMs / 60_000);
  const left =
    minutes >= 48 * 60 ? t.connections.days(Math.floor(minutes / 1440)) : t.connections.hours(Math.floor(minutes / 60), minutes % 60);
  return t.connections.pastedLeft(left);
}

/**
 * A platform's connection state and the button that opens its consent page (through
 * useProfileConnect); the platform's callback brings the browser back to this profile. A new
 * profile's button saves it first.
 */
export function ConnectPlatform({
  platform,
  connection,
  isNew,
  busy,
  onConnect,
}: {
  platform: PlatformName;
  connection: PlatformConnection | undefined;
  isNew: boolean;
  busy: boolean;
  onConnect: () => void;
}) {
  const revoked = connection?.kind === 'revoked';
  const needsConsent = !connection || revoked || connection.method !== 'oauth';
  return (
    <div className={styles.connection}>
      <span className={connection?.state === 'down' ? styles.connectionLost : styles.connectionState} role="status">
        {isNew ? t.connections.savedOnConnect : connectionText(connection)}
      </span>
      {/* Not disabled while busy, so the focus stays on it; the connect machine takes one press at a time. */}
      <Button variant={needsConsent ? 'primary' : 'secondary'} aria-disabled={busy || undefined} onClick={onConnect}>
        <PlugZap size={16} aria-hidden /> {revoked ? t.connections.reconnect : t.connections.connect(t.platform.names[platform])}
      </Button>
    </div>
  );
}
