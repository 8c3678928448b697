import { expect, it } from 'vitest';
import type { AccountDetail, AccountSummary, HomeSummary, Paged } from '../../src/lib/contract';
import * as t from '../../src/lib/i18n';
import { publishPost } from '../../server/jobs/publish';
import { recordConnection } from '../../server/platforms/connections';
import { createAccount, type TestUser } from './backoffice-fixtures';
import { createUser, describeEachDatabase, testJobContext } from './helpers';
import { ManualClock } from './manual-clock';
import { renderedRequest } from './publishing-fixtures';

const clock = new ManualClock(Date.parse('2026-11-25T10:00:00Z'));

/**
 * Issue 39.5: a connection has one state, written by whichever path learns something and read by
 * every screen. A TikTok grant a publish finds revoked is 'down'/'revoked' on the profile's page
 * (header and section alike), in the list's 'Проблемні' and on home by the time the publish's
 * write returns, though the last health check had found TikTok working.
 */
describeEachDatabase(
  'One state per connection',
  (env) => {
    const read = async <T>(user: TestUser, url: string): Promise<T> => {
      const answer = await env().app.inject({ url, headers: user.headers });
      expect(answer.statusCode, answer.body).toBe(200);
      return answer.json<T>();
    };

    it('a revoked TikTok grant seen by a publish turns the connection down everywhere within the same write', async () => {
      const owner = await createUser(env(), 'owner');
      const profile = await createAccount(env(), owner, { comments: 'Відкликаний' });
      // Connected through TikTok's consent page as @olena, the grant gone since; the link is marked as freshAccessToken marks it.
      await env().db.sql(`UPDATE accounts SET is_active_tiktok = true WHERE id = $1`, [profile.id]);
      await env().db.sql(
        `INSERT INTO account_connections (account_id, platform, method, remote_id, state, error, checked_name)
         VALUES ($1, 'tiktok', 'oauth', 'olena', 'revoked', 'access_token_invalid', '@olena')`,
        [profile.id],
      );
      // The last health check, before the fault, found TikTok working.
      const checkedAt = new Date(clock.now() - 3600_000);
      await recordConnection(env().db.sql, {
        accountId: profile.id,
        platform: 'tiktok',
        state: 'connected',
        kind: null,
        source: 'health',
        at: checkedAt,
      });
      const before = await read<AccountDetail>(owner, `/api/accounts/${profile.id}`);
      expect(before).toMatchObject({ connectedAs: { tiktok: '@olena' }, health: { tiktok: { state: 'connected', source: 'health' } } });
      expect((await read<Paged<AccountSummary>>(owner, '/api/accounts?page=1&health=problem')).data).toEqual([]);

      const request = await renderedRequest(env(), owner.id, 1);
      await env().db.sql(`UPDATE creation_requests SET status = 'published', published_at = $2 WHERE id = $1`, [
        request.id,
        new Date(clock.now()),
      ]);
      const { rows } = await env().db.sql(
        `INSERT INTO video_posts (video_id, platform, account_id, status, scheduled_at, job_token)
         VALUES ($1, 'tiktok', $2, 'pending', $3, gen_random_uuid()) RETURNING id, job_token`,
        [request.videos[0]!.id, profile.id, new Date(clock.now())],
      );
      await publishPost({ postId: rows[0].id, token: rows[0].job_token }, testJobContext(env()));

      // No sync, no check since: what the publish learnt is what every reader shows.
      // The platform's own words stay as data beside the kind.
      const down = {
        state: 'down',
        kind: 'revoked',
        source: 'publish',
        detail: 'access_token_invalid',
        at: new Date(clock.now()).toISOString(),
      };
      const detail = await read<AccountDetail>(owner, `/api/accounts/${profile.id}`);
      expect(detail).toMatchObject({ status: 'error', failedPlatforms: ['tiktok'], health: { tiktok: down } });
      expect(detail.error).toContain(t.health.kinds.revoked);
      // The header names nobody TikTok is connected as, and TikTok's section says the same state.
      expect(detail.connectedAs).toEqual({});
      expect(detail.connections).toEqual([
        { platform: 'tiktok', method: 'oauth', state: 'down', kind: 'revoked', name: '@olena', expiresAt: null },
      ]);

      const problems = await read<Paged<AccountSummary>>(owner, '/api/accounts?page=1&health=problem');
      expect(problems.data.map((row) => [row.id, row.status, row.failedPlatforms, row.health.tiktok])).toEqual([
        [profile.id, 'error', ['tiktok'], down],
      ]);
      const all = await read<Paged<AccountSummary>>(owner, '/api/accounts?page=1');
      expect(all.data.find((row) => row.id === profile.id)).toMatchObject({ status: 'error', health: { tiktok: down } });

      const home = await read<HomeSummary>(owner, '/api/home');
      expect(home.attention).toEqual({
        profiles: [
          { id: profile.id, title: `#${profile.id} Відкликаний`, user: { id: owner.id, login: owner.login }, failedPlatforms: ['tiktok'] },
        ],
        total: 1,
      });

      // The owner's bell heard of it once, as a lost grant.
      const { rows: notices } = await env().db.sql(`SELECT kind, platform, failure_code FROM notifications WHERE account_id = $1`, [
        profile.id,
      ]);
      expect(notices).toEqual([{ kind: 'credentials_failed', platform: 'tiktok', failure_code: 'revoked' }]);
    });

    it('a check that only finds the platform silent leaves a revoked access standing', async () => {
      const owner = await createUser(env(), 'owner');
      const profile = await createAccount(env(), owner, { comments: 'Мовчазний' });
      await env().db.sql(`UPDATE accounts SET is_active_tiktok = true WHERE id = $1`, [profile.id]);
      const at = new Date(clock.now());
      const learnt = { accountId: profile.id, platform: 'tiktok', at } as const;
      await recordConnection(env().db.sql, { ...learnt, state: 'down', kind: 'revoked', source: 'publish' });
      await recordConnection(env().db.sql, { ...learnt, state: 'attention', kind: 'platform_unavailable', source: 'health' });
      expect((await read<AccountDetail>(owner, `/api/accounts/${profile.id}`)).health.tiktok).toMatchObject({
        state: 'down',
        kind: 'revoked',
        source: 'publish',
      });
      await recordConnection(env().db.sql, { ...learnt, state: 'connected', kind: null, source: 'consent' });
      expect(await read<AccountDetail>(owner, `/api/accounts/${profile.id}`)).toMatchObject({
        failedPlatforms: [],
        health: { tiktok: { state: 'connected', kind: null, source: 'consent' } },
      });
    });
  },
  { queue: 'send', clock },
);
