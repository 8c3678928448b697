import type { Clock, Timer } from '../../server/clock';

interface Scheduled {
  at: number;
  order: number;
  callback: () => unknown;
  every?: number;
}

/**
 * A clock that stands still until the test moves it. `advance` fires the timers that fall due on
 * the way, earliest first, and waits for what each callback returns (the queue's interval work
 * returns its promise), so a test reads the outcome right after advancing.
 */
export class ManualClock implements Clock {
  private current: number;
  private scheduled: Scheduled[] = [];
  private order = 0;

  constructor(start = Date.now()) {
    this.current = start;
  }

  now = () => this.current;

  sleep = (ms: number, signal?: AbortSignal) =>
    new Promise<void>((resolve, reject) => {
      const aborted = () => reject(new DOMException('The operation was aborted', 'AbortError'));
      if (signal?.aborted) return aborted();
      const timer = this.setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        timer.clear();
        aborted();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    });

  setTimeout = (callback: () => unknown, ms: number): Timer => this.schedule({ at: this.current + ms, order: this.order++, callback });

  setInterval = (callback: () => unknown, ms: number): Timer =>
    this.schedule({ at: this.current + ms, order: this.order++, callback, every: Math.max(1, ms) });

  /** Puts the time at `at`, for a suite whose tests each start at the same moment; timers keep their own times. */
  set(at: number): void {
    this.current = at;
  }

  /** Timers waiting to fire, for a test that waits until a job is asleep on this clock. */
  get pending(): number {
    return this.scheduled.length;
  }

  /** Moves the time `ms` forward, firing each timer due on the way at its own time and waiting for it. */
  async advance(ms: number): Promise<void> {
    const target = this.current + ms;
    for (;;) {
      const next = this.scheduled.filter((entry) => entry.at <= target).sort((a, b) => a.at - b.at || a.order - b.order)[0];
      if (!next) break;
      this.current = Math.max(this.current, next.at);
      if (next.every) next.at += next.every;
      else this.scheduled.splice(this.scheduled.indexOf(next), 1);
      await next.callback();
      await new Promise((resolve) => setImmediate(resolve));
    }
    this.current = target;
  }

  /**
   * Moves the time `ms` forward as a machine that slept through it would: each timer due on the
   * way fires once, at the new time, and an interval counts its next period from there (Node's
   * timers after a held-up event loop). For a stretch in which whatever falls due stays due, so
   * one run of each timer at its end sees what every run on the way would have seen.
   */
  async leap(ms: number): Promise<void> {
    this.current += ms;
    const due = this.scheduled.filter((entry) => entry.at <= this.current).sort((a, b) => a.at - b.at || a.order - b.order);
    for (const entry of due) {
      if (!this.scheduled.includes(entry)) continue;
      if (entry.every) entry.at = this.current + entry.every;
      else this.scheduled.splice(this.scheduled.indexOf(entry), 1);
      await entry.callback();
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /**
   * Runs `wait` while this clock moves `stepMs` every `everyMs` of real time: for waiting on jobs
   * that pause on this clock between their calls (a platform's processing checks, retries).
   */
  async flowing<T>(wait: () => Promise<T>, stepMs = 5, everyMs = 10): Promise<T> {
    let moving = false;
    const timer = setInterval(() => {
      if (moving) return;
      moving = true;
      void this.advance(stepMs).finally(() => (moving = false));
    }, everyMs);
    try {
      return await wait();
    } finally {
      clearInterval(timer);
    }
  }

  private schedule(entry: Scheduled): Timer {
    this.scheduled.push(entry);
    return { clear: () => (this.scheduled = this.scheduled.filter((other) => other !== entry)) };
  }
}
