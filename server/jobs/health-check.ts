import { eq } from 'drizzle-orm';
import { accounts } from '../db/schema';
import { anySwitchedOn } from '../db/platform-columns';
import { proxyOfAccount, SecretUnreadableError } from '../auth/secrets';
import { accessTokenEnding, loadConnection, loadConnections, type StoredConnection } from '../platforms/connections';
import { platformEndpoints } from '../platforms/endpoints';
import { PermanentPlatformError, ProfileAuthError, TransientPlatformError } from '../platforms/errors';
import { networkFailureOf, PlatformNetworkError, PlatformTimeoutError, type ProxyAnswer } from '../net/http';
import { memoryProgressStore } from '../platforms/progress';
import { profileContext, type PlatformAccess } from '../platforms/profile-context';
import type { Platform } from '../platforms/types';
import { serverPlatforms } from '../platforms/registry';
import type { ConnectionKind } from '../../src/lib/contract';
import { platformOf, platformIds } from '../../src/lib/platforms';
import {
  claimHealthCheck,
  healthSoonMs,
  recordHealth,
  releaseHealthCheck,
  type HealthCheckClaim,
  type HealthFinding,
  type UnhealthyProfile,
} from '../services/profiles/profile-health';
import { quotaAccount, takeQuota } from '../services/statistics/quota-ledger';
import type { EngineSettings } from './engine-settings';
import type { JobContext } from './types';

/** The cron job plans; each profile due is checked by a job of its own. */
export const planHealthChecksJobName = 'plan-health-checks';
export const checkProfileHealthJobName = 'check-profile-health';

export interface CheckProfileHealthData {
  accountId: number;
}

/** How often a profile is checked: hourly while it has a post due within a day (healthSoonMs), else daily. */
export const healthCadenceMinutes = { soon: 60, idle: 24 * 60 };

/**
 * Minutes between two plannings (the cron line). A profile whose next check falls by the next
 * planning is taken at this one, so an hourly check comes every hour, not every hour and five minutes.
 */
export const healthPlanEveryMinutes = 5;

/** A check is a read or two: a proxy or platform silent this long is not waited for. */
const checkTimeoutMs = 30_000;

/**
 * Enqueues a check of each profile with a platform switched on whose last check is older than its
 * cadence at `at` (the injected clock's now). The queue keeps at most one waiting check per profile
 * (policy "short", the profile as singleton key), so a check held up by a slow proxy gains no
 * second one per planning.
 */
export async function planHealthChecks({ db, queue }: Pick<JobContext, 'db' | 'queue'>, at: number): Promise<number> {
  const now = new Date(at);
  const { rows } = await db.sql(
    `SELECT a.id FROM accounts AS a
      WHERE ${anySwitchedOn('a')}
        AND (a.health_checked_at IS NULL
          OR a.health_checked_at + make_interval(mins => CASE WHEN EXISTS (
               SELECT 1 FROM video_posts AS p WHERE p.account_id = a.id AND p.status = 'pending'
                  AND p.scheduled_at < $1::timestamptz + make_interval(secs => $5::float8)) THEN $2::integer ELSE $3::integer END)
             <= $1::timestamptz + make_interval(mins => $4::integer))
      ORDER BY a.health_checked_at NULLS FIRST, a.id`,
    [now, healthCadenceMinutes.soon, healthCadenceMinutes.idle, healthPlanEveryMinutes, healthSoonMs / 1000],
  );
  let queued = 0;
  for (const row of rows) {
    const data: CheckProfileHealthData = { accountId: row.id };
    if (await queue.send(checkProfileHealthJobName, data, { singletonKey: String(row.id) })) queued++;
  }
  return queued;
}

const down = (platform: Platform, kind: ConnectionKind, detail?: string): HealthFinding => ({ platform, state: 'down', kind, detail });
const attention = (platform: Platform, kind: ConnectionKind): HealthFinding => ({ platform, state: 'attention', kind });

const proxyReason: Record<Exclude<ProxyAnswer, 'open'>, ConnectionKind> = {
  auth: 'proxy_auth',
  unreachable: 'proxy_unreachable',
  failed: 'proxy_failed',
  refused: 'proxy_refused',
};

/** What a check needs: a job's context, or the API's for a check asked from the profile's page. */
export type HealthCheckContext = Pick<JobContext, 'db' | 'log' | 'keys' | 'signal'> & {
  platforms: PlatformAccess;
  engine: Pick<EngineSettings, 'statsSync'>;
};

export type HealthCheck =
  | {
      kind: 'checked';
      findings: HealthFinding[];
      /** The platforms switched on that the quota ledger had no unit for: not read, their last state stands. */
      unread: Platform[];
      /** The notice given, if one was. */
      notified: UnhealthyProfile | null;
    }
  | Exclude<HealthCheckClaim, { kind: 'claimed' }>;

/**
 * Checks one profile: first whether its proxy opens a tunnel to a platform's host (no platform
 * call; a proxy that does not makes every platform 'down' for its reason), then, per platform
 * switched on, one cheap read with the stored credentials, its unit taken from the quota ledger
 * first like a statistics read (a refusal leaves the platform's last state as it was). Stores what
 * it found and tells the owner of a platform gone 'down' before a post due within a day
 * (recordHealth). The profile is claimed for the check first (claimHealthCheck): while another
 * check holds it, or with `minGapMs` while its last check is that recent, nothing is done and the
 * answer says why.
 */
export async function checkProfileHealth(
  { accountId }: CheckProfileHealthData,
  context: HealthCheckContext,
  { minGapMs }: { minGapMs?: number } = {},
): Promise<HealthCheck> {
  const { db, platforms: settings } = context;
  const claim = await claimHealthCheck(db, accountId, settings.clock.now(), minGapMs);
  if (claim.kind !== 'claimed') return claim;
  try {
    const [account] = await db.orm.select().from(accounts).where(eq(accounts.id, accountId));
    if (!account) return { kind: 'missing' };
    const active = platformIds.filter((platform) => account[platformOf(platform).fields.switchedOn]);
    const findings = await examine(account, active, context);
    const notified = await recordHealth(db, account, active, findings, settings.clock.now());
    const unread = active.filter((platform) => !findings.some((finding) => finding.platform === platform));
    return { kind: 'checked', findings, unread, notified };
  } finally {
    await releaseHealthCheck(db, accountId, claim.at);
  }
}

async function examine(account: Account, active: Platform[], context: HealthCheckContext): Promise<HealthFinding[]> {
  if (active.length === 0) return [];
  const proxy = readableProxy(account, context);
  // Another SECRET_KEY opens none of the profile's secrets: they have to be typed again, the profile connected anew.
  if (proxy === null) return active.map((platform) => down(platform, 'not_connected'));
  const { mode, sandboxOrigin, network } = context.platforms;
  const answer = await network.tunnel(proxy, new URL(platformEndpoints(mode, sandboxOrigin)[serverPlatforms[active[0]!].apiHost]).origin);
  if (answer !== 'open') return active.map((platform) => down(platform, proxyReason[answer]));
  const connections = await loadConnections(context.db, [account.id]);
  const findings: HealthFinding[] = [];
  for (const platform of active) {
    const finding = await checkPlatform(account, platform, proxy, connections, context);
    if (finding) findings.push(finding);
  }
  return findings;
}

type Account = typeof accounts.$inferSelect;

function readableProxy(account: Account, { keys }: HealthCheckContext): string | null {
  try {
    return proxyOfAccount(keys.secretsAtRest, account);
  } catch (error) {
    if (error instanceof SecretUnreadableError) return null;
    throw error;
  }
}

/** Whether the profile holds credentials the platform's calls would use (as profileContext picks them). */
function holdsCredentials(account: Account, platform: Platform, connections: StoredConnection[], context: HealthCheckContext): boolean {
  const of = (method: string) => connections.find((connection) => connection.platform === platform && connection.method === method);
  const { credentials } = serverPlatforms[platform];
  if (of('oauth')) return credentials.linkUsable?.(account) ?? true;
  if (!credentials.typed) return false;
  const typed = of(credentials.typed.method(context.platforms.mode));
  return typed?.accessToken ? credentials.typed.ready(typed) : false;
}

/**
 * One platform's cheap read: the channel (channels.list, 1 unit), the creator (creator_info) or the
 * Instagram account's fields. Null when the quota ledger has no unit to spare: not checked.
 *
 * A check never renews a token on its own account. TikTok's and Instagram's refresh tokens rotate,
 * and the refresher (refreshDueConnections) renews their access tokens at half their life under the
 * single-refresh path's row lock; one found near its end means the refresher could not, and
 * another try from here would only add a rotation that can lose the grant if its answer is lost. So
 * it is reported 'attention' (token_expired) without a call, and the publish that needs it renews it
 * through the same single path. For the same reason their read runs without `renewRejectedToken`:
 * a 401 is reported as it is ('refused'). YouTube is the exception: Google's refresh token neither
 * rotates nor ages with use, and its access token lasts an hour, so an idle profile's has usually
 * ended; profileContext renews it through freshAccessToken, the single-refresh path, as a publish
 * would (and so does a 401), and Google's answer to that refresh is itself the check of the grant:
 * one it refuses for good is marked revoked there.
 */
async function checkPlatform(
  account: Account,
  platform: Platform,
  proxy: string,
  connections: StoredConnection[],
  context: HealthCheckContext,
): Promise<HealthFinding | null> {
  const { db, keys, platforms: settings, engine, signal } = context;
  const link = connections.find((connection) => connection.platform === platform && connection.method === 'oauth');
  const { refreshRotates, whoAmI } = serverPlatforms[platform];
  if (link?.state === 'revoked') return down(platform, 'revoked');
  if (!holdsCredentials(account, platform, connections, context)) return down(platform, 'not_connected');
  if (link && refreshRotates && (link.accessToken === null || accessTokenEnding(link, settings.clock.now()))) {
    return attention(platform, 'token_expired');
  }
  const quota = quotaAccount(platform, account, engine.statsSync, new Date(settings.clock.now()));
  if (!(await takeQuota(db, quota, 1))) {
    context.log.warn({ accountId: account.id, platform }, 'health check of a platform skipped: the quota reads may spend is used up');
    return null;
  }
  try {
    const ctx = await profileContext(account, platform, {
      db,
      secretsKey: keys.secretsAtRest,
      settings,
      progress: memoryProgressStore(),
    });
    if (refreshRotates) ctx.credentials = { ...ctx.credentials, renewRejectedToken: undefined };
    ctx.signal = AbortSignal.any([signal, AbortSignal.timeout(checkTimeoutMs)]);
    await whoAmI(ctx);
  } catch (error) {
    if (signal.aborted) throw error;
    return failureOf(account, platform, proxy, error, context);
  }
  // The access works: recorded as 'connected' (recordHealth), a failure a publish or a sync left on it no longer stands.
  return { platform, state: 'connected', kind: null };
}

/** What a failed read says of the platform's health; an error no platform call gives is thrown on. */
async function failureOf(
  account: Account,
  platform: Platform,
  proxy: string,
  error: unknown,
  context: HealthCheckContext,
): Promise<HealthFinding> {
  if (error instanceof ProfileAuthError) {
    // freshAccessToken marks a grant Google refused for good as revoked.
    const link = await loadConnection(context.db, account.id, platform, 'oauth');
    return down(platform, link?.state === 'revoked' ? 'revoked' : 'refused', error.detail);
  }
  if (error instanceof PermanentPlatformError) return down(platform, 'refused', error.detail);
  if (error instanceof PlatformNetworkError && !(error instanceof PlatformTimeoutError)) {
    // The proxy opened its tunnel a moment ago; one that fails now is down all the same.
    const failure = networkFailureOf(proxy, error);
    if (failure === 'proxy-auth') return down(platform, 'proxy_auth');
    if (failure === 'proxy-unreachable') return down(platform, 'proxy_unreachable');
    return attention(platform, 'platform_unavailable');
  }
  const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
  if (error instanceof TransientPlatformError || error instanceof PlatformTimeoutError || timedOut) {
    return attention(platform, 'platform_unavailable');
  }
  throw error;
}
