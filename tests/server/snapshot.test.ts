import { count } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../../server/db/schema/index';
import { databaseKinds, freshDatabase } from './helpers';

describe.each(databaseKinds())('a read snapshot on %s', (kind) => {
  it('sees every read at the moment of its first, whatever commits meanwhile, and writes nothing', async () => {
    const { db, drop } = await freshDatabase(kind);
    try {
      await db.sql('CREATE TABLE probe (n int)');
      await db.sql('INSERT INTO probe VALUES (1)');
      const probeCount = async (run: typeof db.sql) => (await run('SELECT count(*)::int AS n FROM probe', [])).rows[0].n as number;

      let write!: Promise<unknown>;
      const seen = await db
        .snapshot(async (moment) => {
          const first = await probeCount(moment.sql);
          write = db.sql('INSERT INTO probe VALUES ($1)', [2]);
          // Postgres commits it on another connection now; PGlite's one connection runs it after the snapshot.
          if (kind === 'postgres') await write;
          const second = await probeCount(moment.sql);
          const [{ value: userCount }] = await moment.orm.select({ value: count() }).from(users);
          await expect(moment.sql('INSERT INTO probe VALUES (3)', [])).rejects.toThrow(/read-only/);
          return { first, second, userCount };
        })
        .catch((error: unknown) => error);
      await write;

      expect(seen).toEqual({ first: 1, second: 1, userCount: expect.any(Number) });
      expect(await probeCount(db.sql)).toBe(2);
    } finally {
      await drop();
    }
  });
});
