import { describe, expect, it } from 'vitest';
import { migrate } from '../../server/db/migrate';
import { databaseKinds, freshDatabase } from './helpers';

/**
 * The name each platform answered with lives on the platform's connection (migration 0032), no
 * longer in the profile's `connected_as`, beside a consent link's copy of it in remote_name.
 */
for (const kind of databaseKinds()) {
  describe(`Migration 0032 moves the names the platforms answered with onto their connections [${kind}]`, () => {
    it(
      'puts each stored name on the connection in use of its platform, keeps a typed login, and drops the column',
      { timeout: 60_000 },
      async () => {
        const { db, drop } = await freshDatabase(kind, '0031_platform_failures.sql');
        try {
          const { rows: users } = await db.sql(`INSERT INTO users (login, password_hash) VALUES ('owner', 'x') RETURNING id`);
          const profile = async (connectedAs: object) => {
            const { rows } = await db.sql(
              `INSERT INTO accounts (user_id, proxy, connected_as) VALUES ($1, '127.0.0.1:8080', $2::jsonb) RETURNING id`,
              [users[0].id, JSON.stringify(connectedAs)],
            );
            return rows[0].id as number;
          };
          const connect = (accountId: number, platform: string, method: string, remoteName: string | null = null) =>
            db.sql(`INSERT INTO account_connections (account_id, platform, method, remote_name) VALUES ($1, $2, $3, $4)`, [
              accountId,
              platform,
              method,
              remoteName,
            ]);
          // Every platform, each through another way in: a consent link beside a typed credential, a
          // pasted string alone, Instagram's login alone (its remote_name is the login it signs in with).
          const everyWay = await profile({ youtube: 'Канал', tiktok: 'olena (@olena)', instagram: 'Ранкова крамниця' });
          await connect(everyWay, 'youtube', 'oauth', 'Канал при згоді');
          await connect(everyWay, 'tiktok', 'pasted');
          await connect(everyWay, 'instagram', 'login', 'morning.shop');
          const linkAndTyped = await profile({ instagram: 'Вечірня крамниця' });
          await connect(linkAndTyped, 'instagram', 'pasted');
          await connect(linkAndTyped, 'instagram', 'login', 'evening.shop');
          await connect(linkAndTyped, 'instagram', 'oauth', 'Вечірня крамниця');
          // Its last check did not answer: the consent link's old copy is not a name any more.
          const unanswered = await profile({});
          await connect(unanswered, 'tiktok', 'oauth', 'давня назва');
          // The YouTube link went with its OAuth client; the name it left was shown nowhere.
          const dropped = await profile({ youtube: 'Старий канал' });

          await migrate(db);

          const { rows } = await db.sql(
            `SELECT account_id, platform, method, checked_name, remote_name FROM account_connections
              WHERE account_id = ANY($1::int[]) ORDER BY account_id, platform, method`,
            [[everyWay, linkAndTyped, unanswered, dropped]],
          );
          expect(rows).toEqual([
            { account_id: everyWay, platform: 'instagram', method: 'login', checked_name: 'Ранкова крамниця', remote_name: 'morning.shop' },
            { account_id: everyWay, platform: 'tiktok', method: 'pasted', checked_name: 'olena (@olena)', remote_name: null },
            { account_id: everyWay, platform: 'youtube', method: 'oauth', checked_name: 'Канал', remote_name: null },
            { account_id: linkAndTyped, platform: 'instagram', method: 'login', checked_name: null, remote_name: 'evening.shop' },
            { account_id: linkAndTyped, platform: 'instagram', method: 'oauth', checked_name: 'Вечірня крамниця', remote_name: null },
            { account_id: linkAndTyped, platform: 'instagram', method: 'pasted', checked_name: null, remote_name: null },
            { account_id: unanswered, platform: 'tiktok', method: 'oauth', checked_name: null, remote_name: null },
          ]);
          const { rows: columns } = await db.sql(
            `SELECT column_name FROM information_schema.columns WHERE table_name = 'accounts' AND column_name = 'connected_as'`,
          );
          expect(columns).toEqual([]);
        } finally {
          await drop();
        }
      },
    );
  });
}
