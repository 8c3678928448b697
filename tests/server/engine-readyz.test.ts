import { expect, it } from 'vitest';
import { t } from '../../server/messages';
import { publishJobName } from '../../server/services/publishing/post-lifecycle';
import { renderJobName } from '../../server/jobs/render';
import { createApiToken, createUser, describeEachDatabase } from './helpers';

describeEachDatabase(
  '/readyz reports the engine',
  (env) => {
    it('queue depth, the oldest due job’s lateness and active jobs per kind, to an admin', async () => {
      const { queue, db, app } = env();
      const now = Date.now();
      await queue!.send(publishJobName, { postId: 1, token: 'a' }, { startAfter: new Date(now - 90_000) });
      await queue!.send(publishJobName, { postId: 2, token: 'b' }, { startAfter: new Date(now - 5_000) });
      await queue!.send(publishJobName, { postId: 3, token: 'c' }, { startAfter: new Date(now + 3_600_000) });
      const active = await queue!.send(renderJobName, { requestId: 1 });
      await db.sql(`UPDATE pgboss.job SET state = 'active', started_on = now() WHERE id = $1`, [active]);
      const admin = await createUser(env(), 'chief', { role: 'admin' });

      const response = await app.inject({ method: 'GET', url: '/readyz', headers: admin.headers });
      expect(response.statusCode).toBe(200);
      const { engine } = response.json();
      expect(engine.queues[publishJobName]).toEqual({ due: 2, scheduled: 1, active: 0, oldestDueSeconds: expect.any(Number) });
      expect(engine.queues[publishJobName].oldestDueSeconds).toBeGreaterThanOrEqual(89);
      expect(engine.queues[publishJobName].oldestDueSeconds).toBeLessThan(120);
      expect(engine.queues[renderJobName]).toEqual({ due: 0, scheduled: 0, active: 1, oldestDueSeconds: null });
      expect(engine.liveWorkers).toBe(0);
      const token = await createApiToken(env(), admin, 'admin');
      expect((await app.inject({ url: '/readyz', headers: token.headers })).json().engine.queues[renderJobName].active).toBe(1);
    });

    it('tells a probe without a session only that it is ready, and anyone else who is not an admin nothing more', async () => {
      const { queue, app } = env();
      await queue!.send(publishJobName, { postId: 1, token: 'a' });
      const anonymous = await app.inject({ url: '/readyz' });
      expect([anonymous.statusCode, anonymous.json()]).toEqual([200, { status: 'ok' }]);

      const operator = await createUser(env(), 'operator');
      const asOperator = await app.inject({ url: '/readyz', headers: operator.headers });
      expect([asOperator.statusCode, asOperator.json().message]).toEqual([403, t.server.forbidden]);
      const wrong = await app.inject({ url: '/readyz', headers: { authorization: 'Bearer not-a-token' } });
      expect([wrong.statusCode, wrong.json().message]).toEqual([401, t.server.unauthorized]);
    });

    it('answers 503 in SPEC’s error shape, in Ukrainian, when the database does not answer', async () => {
      const { db, app } = env();
      const sql = db.sql;
      db.sql = () => Promise.reject(new Error('connection refused'));
      try {
        const response = await app.inject({ method: 'GET', url: '/readyz' });
        expect(response.statusCode).toBe(503);
        expect(response.json()).toEqual({ status: 'unavailable', statusCode: 503, error: 'Служба недоступна', message: t.server.notReady });
      } finally {
        db.sql = sql;
      }
    });
  },
  { queue: 'send' },
);
