import type { Database } from '../../server/db/connect';

/** Kept between tests: the migrations applied, and the running processes' registrations. */
const keptTables = ['schema_migrations', 'engine_workers'];

/** Where `keepRows` copies the tables; outside `public`, so neither reset touches it. */
const copySchema = 'kept_rows';

async function appTables(db: Database): Promise<string[]> {
  const { rows } = await db.sql(`SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> ALL($1) ORDER BY tablename`, [
    keptTables,
  ]);
  return rows.map((row) => row.tablename as string);
}

/**
 * Deleting, not truncating: TRUNCATE gives each table and index a new file, about a second for the
 * whole schema on Postgres and a third of that on PGlite, where deleting a few test rows takes
 * milliseconds. As TRUNCATE does, it fires no trigger and checks no foreign key
 * (`session_replication_role = replica`, which needs a superuser, as the tests' Postgres is);
 * every table is emptied in the same transaction, so no row is left pointing at a deleted one.
 */
const deleteEvery = (tables: string[]) => [
  'SET LOCAL session_replication_role = replica',
  ...tables.map((table) => `DELETE FROM public."${table}"`),
];

/**
 * Every table of the app empty and the ids they own starting again from 1, as TRUNCATE ... RESTART
 * IDENTITY leaves them, pg-boss's tables untouched: the state each server test starts from.
 */
export async function emptyDatabase(db: Database): Promise<void> {
  const tables = await appTables(db);
  await db.transaction(async (sql) => {
    await sql(deleteEvery(tables).join(';\n'));
    await sql(
      `SELECT setval(owned.objid::regclass, sequence.seqstart, false)
         FROM pg_depend AS owned
         JOIN pg_sequence AS sequence ON sequence.seqrelid = owned.objid
         JOIN pg_class AS owner ON owner.oid = owned.refobjid
        WHERE owned.classid = 'pg_class'::regclass AND owned.refclassid = 'pg_class'::regclass AND owned.deptype IN ('a', 'i')
          AND owner.relnamespace = 'public'::regnamespace AND owner.relname <> ALL($1)`,
      [keptTables],
    );
  });
}

/**
 * Copies every row of the app's tables and where each sequence of `public` stands, for a test that
 * needs the same seeded database many times: `restore` puts back exactly those rows and sequences
 * (deleting whatever came since, triggers off as above) in one transaction, far cheaper than
 * seeding again through the routes. `drop` removes the copy.
 */
export async function keepRows(db: Database): Promise<{ restore: () => Promise<void>; drop: () => Promise<void> }> {
  const tables = await appTables(db);
  const { rows: sequences } = await db.sql(
    `SELECT format('%I.%I', schemaname, sequencename) AS name, last_value, start_value FROM pg_sequences WHERE schemaname = 'public'`,
    [],
  );
  await db.sql(
    [
      `DROP SCHEMA IF EXISTS ${copySchema} CASCADE`,
      `CREATE SCHEMA ${copySchema}`,
      ...tables.map((table) => `CREATE TABLE ${copySchema}."${table}" AS SELECT * FROM public."${table}"`),
    ].join(';\n'),
  );
  return {
    restore: () =>
      db.transaction(async (sql) => {
        await sql(
          [
            ...deleteEvery(tables),
            ...tables.map((table) => `INSERT INTO public."${table}" OVERRIDING SYSTEM VALUE SELECT * FROM ${copySchema}."${table}"`),
          ].join(';\n'),
        );
        await sql(
          `SELECT setval(kept.name::regclass, coalesce(kept.last_value, kept.start_value), kept.last_value IS NOT NULL)
             FROM json_to_recordset($1::json) AS kept(name text, last_value bigint, start_value bigint)`,
          [JSON.stringify(sequences)],
        );
      }),
    drop: async () => {
      await db.sql(`DROP SCHEMA ${copySchema} CASCADE`);
    },
  };
}
