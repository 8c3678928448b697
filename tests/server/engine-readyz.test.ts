import { expect, it } from 'vitest';
import { t } from '../../server/messages';
import { publishJobName } from '../../server/services/post-lifecycle';
import { renderJobName } from '../../server/jobs/render';
import { describeEachDatabase } from './helpers';

describeEachDatabase(
  '/readyz reports the engine',
  (env) => {
    it('queue depth, the oldest due job’s lateness and active jobs per kind', async () => {
      const { queue, db, app } = env();
      const now = Date.now();
      await queue!.send(publishJobName, { postId: 1, token: 'a' }, { startAfter: new Date(now - 90_000) });
      await queue!.send(publishJobName, { postId: 2, token: 'b' }, { startAfter: new Date(now - 5_000) });
      await queue!.send(publishJobName, { postId: 3, token: 'c' }, { startAfter: new Date(now + 3_600_000) });
      const active = await queue!.send(renderJobName, { requestId: 1 });
      await db.sql(`UPDATE pgboss.job SET state = 'active', started_on = now() WHERE id = $1`, [active]);

      const response = await app.inject({ method: 'GET', url: '/readyz' });
      expect(response.statusCode).toBe(200);
      const { engine } = response.json();
      expect(engine.queues[publishJobName]).toEqual({ due: 2, scheduled: 1, active: 0, oldestDueSeconds: expect.any(Number) });
      expect(engine.queues[publishJobName].oldestDueSeconds).toBeGreaterThanOrEqual(89);
      expect(engine.queues[publishJobName].oldestDueSeconds).toBeLessThan(120);
      expect(engine.queues[renderJobName]).toEqual({ due: 0, scheduled: 0, active: 1, oldestDueSeconds: null });
      expect(engine.liveWorkers).toBe(0);
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
