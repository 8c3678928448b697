import { and, asc, eq, inArray, or } from 'drizzle-orm';
import type { ConnectedAs, SessionUser } from '../../../src/lib/contract';
import type { Database, RunSql } from '../../db/connect';
import { accounts, users } from '../../db/schema';
import { found, visibleTo } from '../../auth/ownership';
import {
  recordAccessFailure,
  recordCheckedName,
  recordConnection,
  saveTypedConnections,
  type StoredConnection,
} from '../../platforms/connections';
import type { PlatformError } from '../../platforms/errors';
import type { Platform } from '../../platforms/types';

/** A profile's own row (accounts) as the profile form writes it; its connections are written beside it (platforms/connections.ts). */

type ProfileColumns = typeof accounts.$inferInsert;

/** The id a new profile will have, taken before its row is written: every secret is encrypted bound to the id of its row. */
export async function newProfileId(db: Database): Promise<number> {
  const { rows } = await db.sql(`SELECT nextval(pg_get_serial_sequence('accounts', 'id')) AS id`, []);
  return Number(rows[0].id);
}

export type ProfileRow = typeof accounts.$inferSelect;

const ownedAccount = (user: SessionUser, id: number) => and(eq(accounts.id, id), visibleTo(user, accounts.userId));

export async function profileRowById(db: Database, id: number): Promise<ProfileRow | undefined> {
  const [row] = await db.orm.select().from(accounts).where(eq(accounts.id, id));
  return row;
}

/** The profile `accountId` while user `userId` still exists and still sees it (an admin sees every one); undefined otherwise. */
export async function profileSeenBy(db: Database, accountId: number, userId: number): Promise<ProfileRow | undefined> {
  const [account] = await db.orm
    .select({ account: accounts })
    .from(accounts)
    .innerJoin(users, eq(users.id, userId))
    .where(and(eq(accounts.id, accountId), or(eq(users.role, 'admin'), eq(accounts.userId, users.id))))
    .then((rows) => rows.map((row) => row.account));
  return account;
}

/** The profile's row when the user sees it; another operator's profile is not found (404). */
export async function visibleProfileRow(db: Database, user: SessionUser, id: number): Promise<ProfileRow> {
  const [row] = await db.orm.select().from(accounts).where(ownedAccount(user, id));
  return found(row);
}

/** The profile's id when the user sees it; another operator's profile is not found (404). */
export async function visibleProfileId(db: Database, user: SessionUser, id: number): Promise<number> {
  const [row] = await db.orm.select({ id: accounts.id }).from(accounts).where(ownedAccount(user, id));
  return found(row).id;
}

/** The profiles of `ids` the user sees, in no particular order; those they do not see are left out. */
export async function visibleProfileRows(db: Database, user: SessionUser, ids: number[]): Promise<ProfileRow[]> {
  return db.orm
    .select()
    .from(accounts)
    .where(and(inArray(accounts.id, ids), visibleTo(user, accounts.userId)));
}

/** Those of `ids` that are `ownerId`'s profiles, in no particular order: a request's profiles are its owner's, whoever publishes it. */
export async function ownerProfilesAmong(db: Database, ownerId: number, ids: number[]): Promise<ProfileRow[]> {
  return db.orm
    .select()
    .from(accounts)
    .where(and(inArray(accounts.id, ids), eq(accounts.userId, ownerId)));
}

/** Every profile of the owner, oldest first. */
export async function ownerProfiles(db: Database, ownerId: number): Promise<ProfileRow[]> {
  return db.orm.select().from(accounts).where(eq(accounts.userId, ownerId)).orderBy(asc(accounts.id));
}

/** Sets some of the profile's own columns outside the profile form: its slots, its texts, a platform switched on by its consent. */
export async function setProfileColumns(db: Database, id: number, columns: Partial<ProfileColumns>): Promise<void> {
  await db.orm.update(accounts).set(columns).where(eq(accounts.id, id));
}

/** What checking a save's connections found, before anything was stored. */
export interface CheckedConnection {
  /** The platforms asked: each keeps the name it answered with, or none. */
  checked: Platform[];
  /** The names the platforms that answered gave. */
  connectedAs: ConnectedAs;
  /** The platforms that refused credentials already stored (a refusal of typed ones stops the save). */
  refused: PlatformError[];
}

/**
 * What the check found, kept in the save's transaction after the typed connections it went
 * through: each platform asked keeps the name it answered with, and its connection the state its
 * answer says: a refusal 'down', an answer 'connected'.
 */
async function recordCheck(run: RunSql, accountId: number, { checked, connectedAs, refused }: CheckedConnection, at: Date) {
  for (const platform of checked) await recordCheckedName(run, accountId, platform, connectedAs[platform] ?? null);
  for (const error of refused) {
    await recordAccessFailure(run, { accountId, platform: error.platform, source: 'reconnect', detail: error.detail, at });
  }
  for (const platform of checked.filter((platform) => connectedAs[platform] !== undefined)) {
    await recordConnection(run, { accountId, platform, state: 'connected', kind: null, source: 'reconnect', at });
  }
}

/** A new profile's row, its typed connections and what their check found: one save, so a failure between them leaves neither. */
export async function createProfile(
  db: Database,
  columns: ProfileColumns & { id: number },
  typed: StoredConnection[],
  connection: CheckedConnection,
  at: Date,
): Promise<void> {
  await db.transaction(async (run) => {
    await insertProfile(db, run, columns);
    await saveTypedConnections(run, typed);
    await recordCheck(run, columns.id, connection, at);
  });
}

/** The profile form's changes, its typed connections and what their check found, in one transaction (see updateProfile). */
export async function saveProfile(
  db: Database,
  id: number,
  changed: Partial<ProfileColumns>,
  youtubeClientChanged: boolean,
  typed: StoredConnection[],
  connection: CheckedConnection,
  at: Date,
): Promise<void> {
  await db.transaction(async (run) => {
    await updateProfile(db, run, id, changed, youtubeClientChanged);
    await saveTypedConnections(run, typed);
    await recordCheck(run, id, connection, at);
  });
}

/** Writes a new profile's row in the save's transaction `run`. */
async function insertProfile(db: Database, run: RunSql, columns: ProfileColumns): Promise<void> {
  const insert = db.orm.insert(accounts).values(columns).toSQL();
  await run(insert.sql, insert.params);
}

/**
 * Writes the profile's changed `columns` in the save's transaction `run`. A new YouTube OAuth
 * client (`youtubeClientChanged`) drops the YouTube connection: a refresh token belongs to one client.
 */
async function updateProfile(
  db: Database,
  run: RunSql,
  id: number,
  columns: Partial<ProfileColumns>,
  youtubeClientChanged: boolean,
): Promise<void> {
  const update = db.orm.update(accounts).set(columns).where(eq(accounts.id, id)).toSQL();
  await run(update.sql, update.params);
  if (youtubeClientChanged) await run(`DELETE FROM account_connections WHERE account_id = $1 AND platform = 'youtube'`, [id]);
}

/** Deletes the profile's row and its connections; its posts stay, without it. Undefined when there was none. */
export async function deleteProfileRow(run: RunSql, id: number): Promise<{ id: number } | undefined> {
  const { rows } = await run(`DELETE FROM accounts WHERE id = $1 RETURNING id`, [id]);
  return rows[0];
}
