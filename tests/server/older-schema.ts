import { migrate } from '../../server/db/migrate';
import { freshDatabase, type DatabaseKind } from './helpers';

/**
 * A database migrated only through `through`, for a test of a later migration: the run's migrated
 * copy with its `public` schema dropped, made again as initdb makes it, and migrated from empty
 * (every migration works in `public` alone). It holds what `freshDatabase(kind, through)` holds
 * without that function's new cluster, whose initdb takes PGlite 3 to 6 s on the busy machine.
 */
export async function databaseThrough(kind: DatabaseKind, through: string): ReturnType<typeof freshDatabase> {
  const fresh = await freshDatabase(kind);
  await fresh.db.sql(
    `DROP SCHEMA public CASCADE;
     CREATE SCHEMA public AUTHORIZATION pg_database_owner;
     GRANT USAGE ON SCHEMA public TO PUBLIC;
     COMMENT ON SCHEMA public IS 'standard public schema'`,
  );
  await migrate(fresh.db, { through });
  return fresh;
}
