import pino from 'pino';
import type PgBoss from 'pg-boss';
import { expect, it } from 'vitest';
import type { Database } from '../../server/db/connect';
import { QueueRunner } from '../../server/engine/runner';

/** A pg-boss whose every fetch waits until the test answers it. */
function bossAnsweredByHand() {
  const pending: ((jobs: unknown[]) => void)[] = [];
  const boss = { fetch: () => new Promise<unknown[]>((resolve) => pending.push(resolve)) } as unknown as PgBoss;
  return { boss, answer: (jobs: unknown[]) => pending.shift()!(jobs), fetches: () => pending.length };
}

/** Lets every promise that can settle now settle: the runner's loop moves on microtasks and one more turn. */
const settled = () => new Promise((resolve) => setImmediate(resolve));

function runnerOn(boss: PgBoss) {
  return new QueueRunner({
    boss,
    db: {} as Database,
    log: pino({ level: 'silent' }),
    name: 'publish',
    concurrency: 2,
    handle: async () => undefined,
  });
}

it('stops when stop() comes while a fetch is under way, instead of going to sleep with nobody left to wake it', async () => {
  const { boss, answer, fetches } = bossAnsweredByHand();
  const runner = runnerOn(boss);
  expect(fetches()).toBe(1);

  let stopped = false;
  const stopping = runner.stop(0).then(() => (stopped = true));
  answer([]);
  await settled();
  expect(stopped).toBe(true);
  await stopping;
  expect(fetches()).toBe(0);
});

it('fetches again when nudged while a fetch is under way, instead of waiting for the next nudge', async () => {
  const { boss, answer, fetches } = bossAnsweredByHand();
  const runner = runnerOn(boss);
  runner.nudge();
  answer([]);
  await settled();
  expect(fetches()).toBe(1);

  const stopping = runner.stop(0);
  answer([]);
  await stopping;
});
