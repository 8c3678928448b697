import { expect, it } from 'vitest';
import { buildLiveApp, createUser, describeEachDatabase } from './helpers';

describeEachDatabase(
  'POST /sandbox/_sync-stats',
  (env) => {
    const sync = (headers: Record<string, string>) =>
      env().app.inject({
        method: 'POST',
        url: '/sandbox/_sync-stats',
        headers: { ...headers, 'content-type': 'application/json' },
        payload: '{}',
      });

    it('plans the statistics sync now for an admin, and for no one else', async () => {
      const admin = await createUser(env(), 'boss', { role: 'admin' });
      const operator = await createUser(env(), 'olena');
      expect((await sync({})).statusCode).toBe(401);
      expect((await sync(operator.headers)).statusCode).toBe(403);
      const planned = await sync(admin.headers);
      expect(planned.statusCode).toBe(202);
      // Nothing is published: nothing is due.
      expect(planned.json()).toEqual({ queued: 0 });
    });

    it('is not there in live mode', async () => {
      const admin = await createUser(env(), 'boss', { role: 'admin' });
      const live = await buildLiveApp(env());
      try {
        const answer = await live.inject({ method: 'POST', url: '/sandbox/_sync-stats', headers: admin.headers, payload: {} });
        expect(answer.statusCode).toBe(404);
      } finally {
        await live.close();
      }
    });
  },
  { queue: 'send' },
);
