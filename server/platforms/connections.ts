import type { ConnectedAs, ConnectionKind, ConnectionSource, ConnectionState } from '../../src/lib/contract';
import { platformIds, platformOf, type ConsentPlatform } from '../../src/lib/platforms';
import { t } from '../messages';
import type { Database, RunSql } from '../db/connect';
import { proxyOfAccount, SecretUnreadableError, secretsOfRow } from '../auth/secrets';
import { ProfileAuthError, TransientPlatformError } from './errors';
import {
  builtInApps,
  installationAppVariables,
  OAuthGrantError,
  type GrantedTokens,
  type LinkEndpoints,
  type OAuthApp,
  type PlatformApps,
} from './oauth-links';
import { linkConnectors, serverPlatforms } from './registry';
import type { PlatformNetwork } from '../net/http';
import type { Platform, PlatformsMode } from './types';
import type { Clock } from '../clock';

/**
 * A profile's link to a platform, in `account_connections` (migrations 0022, 0028, 0031, 0032): made through
 * the platform's consent page ('oauth'), or typed in SPEC's form ('pasted': the TikTok string or an
 * Instagram token; 'login': Instagram's login and password). An OAuth link is kept fresh by
 * one refresh at a time per credential, across every process, because a TikTok refresh rotates
 * the refresh token and two refreshes racing would leave the loser with a dead one. YouTube's
 * link keeps Google's access token too, so publishes and stats syncs reuse it for its hour
 * instead of asking Google for one each time.
 */

export type ConnectionMethod = 'oauth' | 'pasted' | 'login';

export interface StoredConnection {
  accountId: number;
  platform: Platform;
  method: ConnectionMethod;
  accessToken: string | null;
  refreshToken: string | null;
  accessExpiresAt: Date | null;
  refreshExpiresAt: Date | null;
  remoteId: string | null;
  remoteName: string | null;
  /** The grant's own state: 'revoked' once the platform's token endpoint refused it for good; the profile's view of the platform is in connection_states. */
  state: 'connected' | 'revoked';
  error: string | null;
  /** The name the platform answered with when the profile was last checked, on the connection in use (recordCheckedName). */
  checkedName: string | null;
  updatedAt: Date;
}

const fromRow = (row: Record<string, any>): StoredConnection => ({
  accountId: row.account_id,
  platform: row.platform,
  method: row.method,
  accessToken: row.access_token,
  refreshToken: row.refresh_token,
  accessExpiresAt: row.access_expires_at === null ? null : new Date(row.access_expires_at),
  refreshExpiresAt: row.refresh_expires_at === null ? null : new Date(row.refresh_expires_at),
  remoteId: row.remote_id,
  remoteName: row.remote_name,
  state: row.state,
  error: row.error,
  checkedName: row.checked_name,
  updatedAt: new Date(row.updated_at),
});

/** What a path learnt of a profile's connection to a platform: its state, why when not 'connected', and the platform's own words. */
export interface ConnectionFinding {
  state: ConnectionState;
  kind: ConnectionKind | null;
  detail?: string | null;
}

export interface ConnectionReport extends ConnectionFinding {
  accountId: number;
  platform: Platform;
  source: ConnectionSource;
  /** When it was learnt, on the injected clock. */
  at: Date;
}

/** The platform's words are data: long enough to read, never a page of HTML. */
const detailLength = 2000;

/**
 * The one writer of a connection's state (connection_states, migration 0042): every path that
 * learns something of a profile's platform — a publish, an edit, a statistics sync, a health
 * check, a consent, a save that checks the credentials, the token refresher — says it here, and
 * every screen, the bell and the alerts read it. The last word wins, with one exception: an
 * 'attention' (a platform that did not answer, a token not renewed) says nothing of the
 * credentials, so it leaves a revoked or refused access standing. The bell and the grant.revoked
 * alert hear of lost access when it starts (the table's triggers); a spell of 'down' keeps the
 * notice given of it (notified_at) until it ends.
 */
export async function recordConnection(run: RunSql, report: ConnectionReport): Promise<void> {
  await run(
    `INSERT INTO connection_states AS s (account_id, platform, state, kind, source, detail, at) VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (account_id, platform) DO UPDATE SET state = EXCLUDED.state, kind = EXCLUDED.kind, source = EXCLUDED.source,
       detail = EXCLUDED.detail, at = EXCLUDED.at, notified_at = CASE WHEN EXCLUDED.state = 'down' THEN s.notified_at END
     WHERE NOT (EXCLUDED.state = 'attention' AND s.state = 'down' AND s.kind IN ('revoked', 'refused'))`,
    [
      report.accountId,
      report.platform,
      report.state,
      report.kind,
      report.source,
      report.detail ? report.detail.slice(0, detailLength) : null,
      report.at,
    ],
  );
}

/**
 * The platform refused the profile's access (a ProfileAuthError): 'down', 'revoked' when the
 * consent link's grant is marked gone (freshAccessToken), else 'refused'. The consent link is the
 * connection in use whenever there is one.
 */
export async function recordAccessFailure(run: RunSql, report: Omit<ConnectionReport, 'state' | 'kind'>): Promise<void> {
  const { rows } = await run(
    `SELECT 1 FROM account_connections WHERE account_id = $1 AND platform = $2 AND method = 'oauth' AND state = 'revoked'`,
    [report.accountId, report.platform],
  );
  await recordConnection(run, { ...report, state: 'down', kind: rows.length > 0 ? 'revoked' : 'refused' });
}

/**
 * Seals and opens a connection's tokens: bound to the profile, the platform, the method and the
 * column, so a typed credential's ciphertext cannot stand in for the consent link's. An OAuth
 * link's binding leaves the method out, as it was sealed before typed credentials moved here.
 */
export function connectionSecrets(key: Buffer, accountId: number, platform: Platform, method: ConnectionMethod = 'oauth') {
  const row = secretsOfRow(key, 'account_connections', accountId);
  const slot = (column: string) => (method === 'oauth' ? `${platform}_${column}` : `${platform}_${method}_${column}`);
  return {
    seal: (column: 'access_token' | 'refresh_token', value: string | null) => row.seal(slot(column), value),
    open: (column: 'access_token' | 'refresh_token', stored: string | null) => row.open(slot(column), stored),
  };
}

export async function loadConnections(db: Database, accountIds: number[]): Promise<StoredConnection[]> {
  if (accountIds.length === 0) return [];
  const { rows } = await db.sql(`SELECT * FROM account_connections WHERE account_id = ANY($1::int[]) ORDER BY platform`, [accountIds]);
  return rows.map(fromRow);
}

export async function loadConnection(
  db: Database,
  accountId: number,
  platform: Platform,
  method: ConnectionMethod,
): Promise<StoredConnection | undefined> {
  const { rows } = await db.sql(`SELECT * FROM account_connections WHERE account_id = $1 AND platform = $2 AND method = $3`, [
    accountId,
    platform,
    method,
  ]);
  return rows[0] ? fromRow(rows[0]) : undefined;
}

const secondsFrom = (now: number, seconds: number | null) => (seconds === null ? null : new Date(now + seconds * 1000));

/**
 * Stores what a consent gave: a new grant, so the warnings about the old one's end are cleared,
 * and the profile's access error on this platform with them.
 */
export async function saveGrantedConnection(
  db: Database,
  key: Buffer,
  accountId: number,
  platform: Platform,
  tokens: GrantedTokens,
  clock: Clock,
): Promise<void> {
  const secrets = connectionSecrets(key, accountId, platform);
  // The token's age (updated_at) is counted on the same clock as its end, as halfLifePassed compares the two.
  const now = clock.now();
  await db.transaction(async (run) => {
    await run(
      `INSERT INTO account_connections
         (account_id, platform, method, access_token, refresh_token, access_expires_at, refresh_expires_at, remote_id, state, updated_at,
          granted_at)
       VALUES ($1, $2, 'oauth', $3, $4, $5, $6, $7, 'connected', $8, $8)
       ON CONFLICT (account_id, platform, method) DO UPDATE SET
         access_token = EXCLUDED.access_token, refresh_token = EXCLUDED.refresh_token,
         access_expires_at = EXCLUDED.access_expires_at, refresh_expires_at = EXCLUDED.refresh_expires_at,
         remote_id = EXCLUDED.remote_id, state = 'connected', error = NULL, granted_at = EXCLUDED.updated_at,
         ending_notified_at = NULL, updated_at = EXCLUDED.updated_at`,
      [
        accountId,
        platform,
        secrets.seal('access_token', tokens.accessToken),
        secrets.seal('refresh_token', tokens.refreshToken),
        secondsFrom(now, tokens.accessExpiresIn),
        secondsFrom(now, tokens.refreshExpiresIn),
        tokens.remoteId,
        new Date(now),
      ],
    );
    await recordConnection(run, { accountId, platform, state: 'connected', kind: null, source: 'consent', at: new Date(now) });
  });
}

/**
 * Stores the credentials a profile's form gave (see typedConnections in server/routes/accounts.ts),
 * beside any consent link of the same platform, which stays the one used while it exists. Runs in
 * the save's transaction, so a profile is never left with half of what its form gave.
 */
export async function saveTypedConnections(run: RunSql, connections: StoredConnection[]): Promise<void> {
  for (const connection of connections) {
    await run(
      `INSERT INTO account_connections (account_id, platform, method, access_token, access_expires_at, remote_id, remote_name)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (account_id, platform, method) DO UPDATE SET access_token = EXCLUDED.access_token,
         access_expires_at = EXCLUDED.access_expires_at, remote_id = EXCLUDED.remote_id, remote_name = EXCLUDED.remote_name,
         updated_at = $8`,
      [
        connection.accountId,
        connection.platform,
        connection.method,
        connection.accessToken,
        connection.accessExpiresAt,
        connection.remoteId,
        connection.remoteName,
        connection.updatedAt,
      ],
    );
  }
}

/**
 * How long a pasted TikTok string works from when it is saved. Live: TikTok's user access token
 * lives 2 hours ("Manage User Access Tokens", developers.tiktok.com/doc/oauth-user-access-token-management:
 * expires_in 7200). Sandbox: its strings age for the sandbox's shortened lifetime when set, else
 * for the 180 days of the grant behind them (server/sandbox/tokens.ts), counted there
 * from first use, so the figure shown is a lower bound.
 */
export function pastedTikTokSeconds(mode: PlatformsMode, sandboxTokenTtlSeconds: number | undefined): number {
  if (mode === 'live') return 2 * 3600;
  return sandboxTokenTtlSeconds ?? 180 * 24 * 3600;
}

/**
 * What the platform answered when the profile's credentials were checked: the account's name, or
 * none when it did not answer. Kept on the connection in use, as a failure is, and taken off the
 * platform's other connections, so a platform has one name. A platform with no connection has no
 * account to name.
 */
export async function recordCheckedName(run: RunSql, accountId: number, platform: Platform, name: string | null): Promise<void> {
  await run(
    `UPDATE account_connections
        SET checked_name = CASE WHEN method = (SELECT method FROM account_connections WHERE account_id = $1 AND platform = $2
                                               ORDER BY method = 'oauth' DESC, method LIMIT 1) THEN $3 END
      WHERE account_id = $1 AND platform = $2`,
    [accountId, platform, name],
  );
}

/** The names the platforms answered with, by platform (recordCheckedName keeps one per platform). */
export function checkedNamesOf(connections: StoredConnection[]): ConnectedAs {
  return Object.fromEntries(
    connections.flatMap((connection) => (connection.checkedName === null ? [] : [[connection.platform, connection.checkedName]])),
  );
}

/** What sets up a platform's app, as a missing one's message names it: the installation's variables, or YouTube's fields of the profile. */
export const appVariables = Object.fromEntries(
  platformIds.map((platform) => {
    const variables = (installationAppVariables as Partial<Record<Platform, readonly string[]>>)[platform];
    return [platform, variables ? variables.join(' і ') : t.connections.youtubeAppFields];
  }),
) as Record<Platform, string>;

export interface RefreshSettings {
  mode: PlatformsMode;
  /** Where this server reaches the platforms' token endpoints. */
  platformsOrigin: string;
  apps?: PlatformApps;
  network: PlatformNetwork;
  /** What token ends are compared with; a renewed token's end and age are counted from it. */
  clock: Clock;
}

/**
 * An access token closer to its end than this is renewed before use, so a publish's first call
 * does not meet an expired one: a minute, or a quarter of a shorter life (a shortened sandbox token).
 */
function useMarginMs(connection: StoredConnection): number {
  const life = connection.accessExpiresAt!.getTime() - connection.updatedAt.getTime();
  return Math.min(60_000, life / 4);
}

/** Whether an access token is so near its end (or past it) that freshAccessToken renews it before use. */
export function accessTokenEnding(connection: StoredConnection, now: number): boolean {
  return connection.accessExpiresAt !== null && connection.accessExpiresAt.getTime() - now < useMarginMs(connection);
}

/**
 * Whether the refresher renews a connection now: once half the access token's life has passed
 * (TikTok: an hour into its two; Instagram: 30 days into its 60, well past the 24 hours before
 * which refresh_access_token refuses), so a token is always renewed while it still works.
 */
export function halfLifePassed(connection: StoredConnection, now: number): boolean {
  if (!connection.accessExpiresAt) return false;
  const end = connection.accessExpiresAt.getTime();
  return now >= end - (end - connection.updatedAt.getTime()) / 2;
}

/**
 * An access token that works now. Renews it when it is about to end (or `stale`, the token a
 * platform just refused, is still the stored one) under a row lock, so of many publishes and
 * refresher runs in every process meeting the end of one token, one refreshes and the others use
 * its result. A grant the platform no longer honours is recorded (state 'revoked', the profile's
 * access error, which notifies its owner) and thrown as ProfileAuthError; any other refusal or
 * outage is a TransientPlatformError, worth another try later.
 */
export async function freshAccessToken(
  db: Database,
  key: Buffer,
  settings: RefreshSettings,
  proxy: string,
  accountId: number,
  platform: Platform,
  options: { stale?: string; due?: (connection: StoredConnection) => boolean } = {},
): Promise<string> {
  const secrets = connectionSecrets(key, accountId, platform);
  const needsRefresh = (connection: StoredConnection) => {
    const token = secrets.open('access_token', connection.accessToken);
    // A link moved from the profile's old columns holds a refresh token alone (moveLegacyCredentials).
    if (token === null) return true;
    if (options.stale !== undefined && token === options.stale) return true;
    if (options.due?.(connection)) return true;
    return accessTokenEnding(connection, settings.clock.now());
  };
  const current = await loadConnection(db, accountId, platform, 'oauth');
  if (!current) throw new ProfileAuthError(platform, '', undefined, 'not_connected');
  if (current.state === 'revoked') throw revokedError(platform, current.error ?? '');
  if (!needsRefresh(current)) return secrets.open('access_token', current.accessToken)!;

  const outcome = await db.transaction(async (run): Promise<{ token: string } | { dead: ProfileAuthError } | { failed: unknown }> => {
    const { rows } = await run(
      `SELECT * FROM account_connections WHERE account_id = $1 AND platform = $2 AND method = 'oauth' FOR UPDATE`,
      [accountId, platform],
    );
    const locked = rows[0] ? fromRow(rows[0]) : undefined;
    if (!locked) return { dead: new ProfileAuthError(platform, '', undefined, 'not_connected') };
    if (locked.state === 'revoked') return { dead: revokedError(platform, locked.error ?? '') };
    // Another process renewed it while this one waited for the lock.
    if (!needsRefresh(locked)) return { token: secrets.open('access_token', locked.accessToken)! };
    const consent = platformOf(platform).consent;
    const app =
      consent === 'profile-client'
        ? await profileGoogleClient(run, key, accountId)
        : (settings.apps ?? builtInApps(settings.mode))[platform as ConsentPlatform];
    if (!app && consent === 'profile-client') return { dead: new ProfileAuthError(platform, '', undefined, 'not_connected') };
    if (!app) return { failed: new TransientPlatformError(platform, { kind: 'app_missing', variables: appVariables[platform] }, '') };
    let tokens: GrantedTokens;
    try {
      tokens = await linkConnectors[platform].renewGrant(linkEndpoints(settings), proxy, app, {
        accessToken: secrets.open('access_token', locked.accessToken)!,
        refreshToken: secrets.open('refresh_token', locked.refreshToken),
        remoteId: locked.remoteId ?? '',
      });
    } catch (error) {
      if (error instanceof OAuthGrantError && error.dead) {
        const dead = revokedError(platform, error.message);
        await markRevoked(run, accountId, platform, dead, new Date(settings.clock.now()));
        return { dead };
      }
      return {
        failed: error instanceof OAuthGrantError ? new TransientPlatformError(platform, 'unavailable', error.message) : error,
      };
    }
    // The token's age (updated_at) is counted on the same clock as its end, as halfLifePassed compares the two.
    const now = settings.clock.now();
    await run(
      `UPDATE account_connections SET access_token = $3, access_expires_at = $4,
              refresh_token = coalesce($5, refresh_token), refresh_expires_at = coalesce($6, refresh_expires_at), updated_at = $7
        WHERE account_id = $1 AND platform = $2 AND method = 'oauth'`,
      [
        accountId,
        platform,
        secrets.seal('access_token', tokens.accessToken),
        secondsFrom(now, tokens.accessExpiresIn),
        secrets.seal('refresh_token', tokens.refreshToken),
        secondsFrom(now, tokens.refreshExpiresIn),
        new Date(now),
      ],
    );
    return { token: tokens.accessToken };
  });
  if ('token' in outcome) return outcome.token;
  if ('dead' in outcome) throw outcome.dead;
  throw outcome.failed;
}

/** SPEC's per-profile Google OAuth client, kept in the profile's columns the form writes. */
async function profileGoogleClient(run: RunSql, key: Buffer, accountId: number): Promise<OAuthApp | null> {
  const { rows } = await run(`SELECT youtube_client_id, youtube_client_secret FROM accounts WHERE id = $1`, [accountId]);
  const row = rows[0];
  if (!row?.youtube_client_id) return null;
  try {
    const secret = secretsOfRow(key, 'accounts', accountId).open('youtube_client_secret', row.youtube_client_secret);
    return secret ? { id: row.youtube_client_id, secret } : null;
  } catch (error) {
    if (error instanceof SecretUnreadableError) return null;
    throw error;
  }
}

/** 'Доступ TikTok відкликано — підключіть профіль знову', with the platform's own words. */
function revokedError(platform: Platform, detail: string) {
  return new ProfileAuthError(platform, detail, undefined, 'grant_revoked');
}

/**
 * The grant is gone: the consent link keeps the platform's words and is used no more, and the
 * connection turns 'down'/'revoked', which tells the owner (the bell's trigger). The path that met
 * it (a publish, a sync) records the same state as its own, so the owner is told once.
 */
async function markRevoked(run: RunSql, accountId: number, platform: Platform, error: ProfileAuthError, at: Date) {
  await run(
    `UPDATE account_connections SET state = 'revoked', error = $3, updated_at = $4
      WHERE account_id = $1 AND platform = $2 AND method = 'oauth'`,
    [accountId, platform, error.detail, at],
  );
  await recordConnection(run, { accountId, platform, state: 'down', kind: 'revoked', source: 'refresh', detail: error.detail, at });
}

export function linkEndpoints(settings: RefreshSettings): LinkEndpoints {
  return { mode: settings.mode, publicUrl: settings.platformsOrigin, platformsOrigin: settings.platformsOrigin, network: settings.network };
}

/** Days before a grant's end when its owner is told, by platform (ServerPlatform.endingNoticeDays). */
export const endingNoticeDays = Object.fromEntries(
  platformIds.map((platform) => [platform, serverPlatforms[platform].endingNoticeDays]),
) as Record<Platform, number>;

/**
 * One pass of the refresher: renews every OAuth connection past half its token's life, then tells
 * the owners of grants nearing their end, once per grant. Runs in every worker process; the row
 * lock in freshAccessToken keeps it to one refresh per credential. YouTube's links are left to
 * their users: Google's refresh token neither rotates nor ages with use, so renewing its hourly
 * access token ahead would only spend token requests (issue 23) that a publish or a stats sync
 * makes itself when it needs one.
 */
export async function refreshDueConnections(
  db: Database,
  key: Buffer,
  settings: RefreshSettings,
  onError: (accountId: number, platform: Platform, error: unknown) => void,
): Promise<number> {
  const { rows } = await db.sql(
    `SELECT c.*, a.proxy, a.proxy_password FROM account_connections c JOIN accounts a ON a.id = c.account_id
      WHERE c.method = 'oauth' AND c.state = 'connected' AND c.access_expires_at IS NOT NULL AND c.platform <> 'youtube'`,
    [],
  );
  let refreshed = 0;
  for (const row of rows) {
    const connection = fromRow(row);
    if (!halfLifePassed(connection, settings.clock.now())) continue;
    try {
      const proxy = proxyOfAccount(key, { id: connection.accountId, proxy: row.proxy, proxyPassword: row.proxy_password });
      await freshAccessToken(db, key, settings, proxy, connection.accountId, connection.platform, {
        due: (locked) => halfLifePassed(locked, settings.clock.now()),
      });
      refreshed++;
    } catch (error) {
      onError(connection.accountId, connection.platform, error);
    }
  }
  await notifyEndingGrants(db, new Date(settings.clock.now()));
  return refreshed;
}

/**
 * The bell's notice ahead of a grant's end (endingNoticeDays): a refresh token's end (TikTok, and
 * YouTube's where it has one), Instagram's long-lived token's (its refresh failed for weeks). Only
 * grants that were to last longer than the notice period from their consent count, so a fresh
 * shortened sandbox token (SANDBOX_TOKEN_TTL_SECONDS) raises none.
 */
export async function notifyEndingGrants(db: Database, now: Date) {
  await db.transaction(async (run) => {
    const { rows } = await run(
      `UPDATE account_connections c SET ending_notified_at = $2
         FROM (SELECT account_id, platform,
                      CASE platform WHEN 'instagram' THEN access_expires_at ELSE refresh_expires_at END AS ends_at,
                      make_interval(days => ($1::jsonb ->> platform)::int) AS notice
                 FROM account_connections
                WHERE method = 'oauth' AND state = 'connected' AND ending_notified_at IS NULL) e
        WHERE c.account_id = e.account_id AND c.platform = e.platform AND c.method = 'oauth'
          AND e.ends_at < $2::timestamptz + e.notice AND e.ends_at - c.granted_at > e.notice
        RETURNING c.account_id, c.platform, e.ends_at`,
      [JSON.stringify(endingNoticeDays), now],
    );
    for (const row of rows) {
      const name = t.platform.names[row.platform as Platform];
      const days = Math.max(0, Math.ceil((new Date(row.ends_at).getTime() - now.getTime()) / 86_400_000));
      await run(`SELECT add_notification(a.user_id, 'credentials_ending', NULL, a.id, $2, $3) FROM accounts a WHERE a.id = $1`, [
        row.account_id,
        row.platform,
        `${name}: ${t.connections.ending(name, days)}`,
      ]);
    }
  });
}

/**
 * Moves the YouTube refresh tokens stored in `accounts.youtube_refresh_token` before YouTube's
 * link lived in account_connections into it. A step at startup rather than in the migration: the
 * token is sealed bound to its table and column, so resealing it needs SECRET_KEY, which SQL
 * migrations never see. Runs under the startup lock after the migrations (server/main.ts), and
 * each row is moved and cleared in one transaction holding the profile's row, so it is done once
 * however many processes start; a link the profile made since is kept and the old token dropped.
 * A token the key cannot open stays where it is, for the operator to connect the profile again.
 */
export async function moveLegacyYouTubeTokens(db: Database, key: Buffer): Promise<{ moved: number; unreadable: number }> {
  const { rows } = await db.sql(`SELECT id FROM accounts WHERE youtube_refresh_token IS NOT NULL ORDER BY id`, []);
  let moved = 0;
  let unreadable = 0;
  for (const { id } of rows) {
    await db.transaction(async (run) => {
      const { rows: locked } = await run(
        `SELECT youtube_refresh_token FROM accounts WHERE id = $1 AND youtube_refresh_token IS NOT NULL FOR UPDATE`,
        [id],
      );
      if (!locked[0]) return;
      let refreshToken: string | null;
      try {
        refreshToken = secretsOfRow(key, 'accounts', id).open('youtube_refresh_token', locked[0].youtube_refresh_token);
      } catch (error) {
        if (!(error instanceof SecretUnreadableError)) throw error;
        unreadable++;
        return;
      }
      await run(
        `INSERT INTO account_connections (account_id, platform, method, refresh_token, state)
         VALUES ($1, 'youtube', 'oauth', $2, 'connected') ON CONFLICT (account_id, platform, method) DO NOTHING`,
        [id, connectionSecrets(key, id, 'youtube').seal('refresh_token', refreshToken)],
      );
      await run(`UPDATE accounts SET youtube_refresh_token = NULL WHERE id = $1`, [id]);
      moved++;
    });
  }
  return { moved, unreadable };
}

/** SPEC's typed secrets as the profile's own columns held them before migration 0028, and where each now lives. */
const legacyTypedColumns = [
  { column: 'tiktok_auth_str', platform: 'tiktok', method: 'pasted', identity: null },
  { column: 'instagram_access_token', platform: 'instagram', method: 'pasted', identity: 'remote_id' },
  { column: 'instagram_password', platform: 'instagram', method: 'login', identity: 'remote_name' },
] as const;

/**
 * Moves the typed credentials kept in the profile's columns (`tiktok_auth_str`,
 * `instagram_access_token` with `instagram_user_id`, `instagram_password` with `instagram_login`)
 * into the profile's connections, as moveLegacyYouTubeTokens does with YouTube's tokens: at
 * startup under the startup lock, one transaction per profile holding its row, so it is done once
 * however many processes start. A connection the form has stored since keeps its secret. A secret
 * the key cannot open stays in its column, for the operator to type again.
 */
export async function moveTypedCredentials(db: Database, key: Buffer): Promise<{ moved: number; unreadable: number }> {
  const anyStored = legacyTypedColumns.map(({ column }) => `${column} IS NOT NULL`).join(' OR ');
  const { rows } = await db.sql(`SELECT id FROM accounts WHERE ${anyStored} ORDER BY id`, []);
  let moved = 0;
  let unreadable = 0;
  for (const { id } of rows) {
    await db.transaction(async (run) => {
      const { rows: locked } = await run(
        `SELECT tiktok_auth_str, instagram_access_token, instagram_password, instagram_user_id, instagram_login
           FROM accounts WHERE id = $1 AND (${anyStored}) FOR UPDATE`,
        [id],
      );
      const row = locked[0];
      if (!row) return;
      const identities = { remote_id: row.instagram_user_id, remote_name: row.instagram_login };
      for (const { column, platform, method, identity } of legacyTypedColumns) {
        if (row[column] === null) continue;
        let secret: string | null;
        try {
          secret = secretsOfRow(key, 'accounts', id).open(column, row[column]);
        } catch (error) {
          if (!(error instanceof SecretUnreadableError)) throw error;
          unreadable++;
          continue;
        }
        await run(
          `INSERT INTO account_connections (account_id, platform, method, access_token, remote_id, remote_name)
           VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT (account_id, platform, method) DO UPDATE SET
             access_token = coalesce(account_connections.access_token, EXCLUDED.access_token),
             remote_id = coalesce(account_connections.remote_id, EXCLUDED.remote_id),
             remote_name = coalesce(account_connections.remote_name, EXCLUDED.remote_name)`,
          [
            id,
            platform,
            method,
            connectionSecrets(key, id, platform, method).seal('access_token', secret),
            identity === 'remote_id' ? identities.remote_id : null,
            identity === 'remote_name' ? identities.remote_name : null,
          ],
        );
        await run(`UPDATE accounts SET ${column} = NULL WHERE id = $1`, [id]);
        moved++;
      }
    });
  }
  return { moved, unreadable };
}
