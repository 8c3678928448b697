import { setTimeout as sleep } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../../server/auth/passwords';

it('hashes and verifies passwords off the event loop', async () => {
  const started = performance.now();
  const work = Promise.all(Array.from({ length: 8 }, (_, index) => hashPassword(`password ${index}`)));
  let lateness = 0;
  let ticks = 0;
  let done = false;
  void work.then(() => (done = true));
  while (!done) {
    const before = performance.now();
    await sleep(5);
    lateness = Math.max(lateness, performance.now() - before - 5);
    ticks += 1;
  }
  const hashes = await work;
  // Eight argon2id hashes take far longer than one timer tick; the timers kept running meanwhile.
  expect(performance.now() - started).toBeGreaterThan(40);
  expect(ticks).toBeGreaterThan(3);
  expect(lateness).toBeLessThan(100);
  expect(await verifyPassword(hashes[3]!, 'password 3')).toBe(true);
  expect(await verifyPassword(hashes[3]!, 'password 4')).toBe(false);
});
