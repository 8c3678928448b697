import type { ConnectedAs } from '../../../src/lib/contract';
import type { Database } from '../../db/connect';
import { PlatformNetworkError } from '../../net/http';
import { PlatformError, TransientPlatformError } from '../../platforms/errors';
import { profileContext, type PlatformAccess, type ProfileCredentials } from '../../platforms/profile-context';
import type { StoredConnection } from '../../platforms/connections';
import { memoryProgressStore } from '../../platforms/progress';
import { serverPlatforms } from '../../platforms/registry';
import type { Platform } from '../../platforms/types';

/** The operator waits on the save: a platform or proxy silent this long counts as unreachable, not as a refusal. */
const checkTimeoutMs = 15_000;

async function whoAmI(
  credentials: ProfileCredentials,
  platform: Platform,
  secretsKey: Buffer,
  settings: PlatformAccess,
  db?: Database,
  typed?: StoredConnection[],
) {
  const ctx = await profileContext(credentials, platform, { db, typed, secretsKey, settings, progress: memoryProgressStore() });
  ctx.signal = AbortSignal.timeout(checkTimeoutMs);
  return serverPlatforms[platform].whoAmI(ctx);
}

function unreachable(error: unknown): boolean {
  return (
    error instanceof PlatformNetworkError ||
    error instanceof TransientPlatformError ||
    (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
  );
}

export interface ConnectionCheck {
  /** The names the platforms answered with, for the platforms that answered. */
  connectedAs: ConnectedAs;
  /** Platforms that could not be reached (proxy down, platform busy or silent): neither confirmed nor refused. */
  unreachable: Platform[];
  /** The platforms that refused the credentials (wrong string, revoked grant, unknown account), in their own words. */
  refused: PlatformError[];
}

/**
 * Asks each platform, through the profile's proxy, which account the credentials reach. A network
 * failure or a busy platform only leaves the platform unconfirmed, so an operator can still save
 * a profile while its proxy is down; what to do with a refusal is the caller's decision.
 */
export async function checkConnections(
  credentials: ProfileCredentials,
  platforms: Platform[],
  secretsKey: Buffer,
  settings: PlatformAccess,
  /** Where the profile's connections made through consent pages are; absent for a profile not yet saved. */
  db?: Database,
  /** The typed credentials a save is about to store; the stored ones when absent. */
  typed?: StoredConnection[],
): Promise<ConnectionCheck> {
  const answers = await Promise.allSettled(platforms.map((platform) => whoAmI(credentials, platform, secretsKey, settings, db, typed)));
  const result: ConnectionCheck = { connectedAs: {}, unreachable: [], refused: [] };
  answers.forEach((answer, index) => {
    const platform = platforms[index]!;
    if (answer.status === 'fulfilled') result.connectedAs[platform] = serverPlatforms[platform].accountName(answer.value);
    else if (unreachable(answer.reason)) result.unreachable.push(platform);
    else if (answer.reason instanceof PlatformError) result.refused.push(answer.reason);
    else throw answer.reason;
  });
  return result;
}
