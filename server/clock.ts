import { setTimeout as delay } from 'node:timers/promises';

/** A timer a Clock started; `clear` stops it before it fires (again). */
export interface Timer {
  clear(): void;
}

/**
 * The time the server goes by: token ends, caps windows, pauses between attempts, and the queue's
 * interval work. main.ts makes the system clock and hands it down; tests hand a clock they move
 * (tests/server/manual-clock.ts), so waiting for a token's end takes no real time.
 */
export interface Clock {
  /** Milliseconds since the epoch, as Date.now(). */
  now(): number;
  /** Resolves after `ms`; rejects with an AbortError when `signal` fires first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** Calls `callback` once after `ms`. */
  setTimeout(callback: () => unknown, ms: number): Timer;
  /** Calls `callback` every `ms`; the timer keeps no process alive on its own. */
  setInterval(callback: () => unknown, ms: number): Timer;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) => delay(ms, undefined, { signal }),
  setTimeout: (callback, ms) => {
    const timer = setTimeout(callback, ms);
    return { clear: () => clearTimeout(timer) };
  },
  setInterval: (callback, ms) => {
    const timer = setInterval(callback, ms);
    timer.unref();
    return { clear: () => clearInterval(timer) };
  },
};
