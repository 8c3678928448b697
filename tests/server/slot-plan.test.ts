import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dayjs } from '../../src/lib/dates';
import { kyivWallTime } from '../../src/lib/kyiv-time';
import { pacificDay, pacificTimezone } from '../../server/platforms/youtube/caps';
import { daysBetween, isoWeekday, SlotPlan, type PlanCap, type PlanProfile } from '../../server/services/planning/slot-plan';

/** Issue 31.3: whatever the slots, posts and caps, a placement keeps every rule; what cannot fit says why. */

const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;
// Monday 7 December 2026, 00:00 in Kyiv.
const weekStart = Date.parse('2026-12-06T22:00:00Z');
const days = daysBetween('2026-12-07', '2026-12-13');
const clock = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

const slotsArbitrary = fc
  .record({
    from: fc.integer({ min: 0, max: 200 }).map((step) => step * 5),
    length: fc.integer({ min: 1, max: 80 }).map((step) => step * 5),
    minGapMinutes: fc.constantFrom(0, 30, 90, 120, 240),
    days: fc.uniqueArray(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 7 }),
  })
  .map(({ from, length, minGapMinutes, days: weekdays }) => ({
    from: clock(from),
    to: clock(Math.min(from + length, 23 * 60 + 55)),
    minGapMinutes,
    days: weekdays.sort(),
  }));

function profileOf(slots: PlanProfile['slots'], existing: number[], cap: PlanCap | null): PlanProfile {
  return {
    id: 1,
    slots,
    times: [...existing].sort((a, b) => a - b),
    caps: new Map(cap ? [['tiktok', cap]] : []),
    preferredHours: [],
  };
}

/** A profile's slots, the posts it already has that week, a daily TikTok cap or none, how many to place from how late. */
const planArbitrary = fc.record({
  slots: slotsArbitrary,
  existing: fc
    .uniqueArray(fc.integer({ min: 0, max: 7 * 24 * 12 }), { maxLength: 15 })
    .map((steps) => steps.map((step) => weekStart + step * 5 * minute)),
  capLimit: fc.option(fc.integer({ min: 1, max: 4 }), { nil: null }),
  posts: fc.integer({ min: 1, max: 25 }),
  earliestOffset: fc.integer({ min: 0, max: 3 * day }),
});

const capOf = (existing: number[], capLimit: number | null): PlanCap | null =>
  capLimit === null ? null : { platform: 'tiktok', limit: capLimit, windowMs: day, times: [...existing].sort((a, b) => a - b) };

/**
 * Every placed post is inside its Kyiv hours and days, on the 5-minute grid, the gap from every
 * other post, and within the moving cap: a window ending at a post already there holds no more
 * than it did, or the cap.
 */
function expectEveryRuleKept(
  placed: number[],
  { slots, existing, capLimit, earliest }: { slots: PlanProfile['slots']; existing: number[]; capLimit: number | null; earliest: number },
) {
  const gapMs = Math.max(slots.minGapMinutes, 5) * minute;
  const countedBefore = (at: number) => existing.filter((other) => other > at - day && other <= at).length;
  for (const at of placed) {
    const wall = kyivWallTime(at);
    expect(at).toBeGreaterThanOrEqual(earliest);
    expect(at % (5 * minute)).toBe(0);
    expect(slots.days).toContain(isoWeekday(wall.slice(0, 10)));
    expect(wall.slice(11) >= slots.from && wall.slice(11) <= slots.to, `${wall} in ${slots.from}–${slots.to}`).toBe(true);
    for (const other of [...existing, ...placed]) if (other !== at) expect(Math.abs(other - at)).toBeGreaterThanOrEqual(gapMs);
    if (capLimit !== null) {
      const all = [...existing, ...placed];
      expect(all.filter((other) => other > at - day && other <= at).length).toBeLessThanOrEqual(capLimit);
      for (const later of existing.filter((other) => other > at && other < at + day)) {
        expect(all.filter((other) => other > later - day && other <= later).length).toBeLessThanOrEqual(
          Math.max(capLimit, countedBefore(later)),
        );
      }
    }
  }
}

describe('SlotPlan', () => {
  it('places every post inside its Kyiv hours and days, the gap from every other post, and within the moving cap', () => {
    fc.assert(
      fc.property(planArbitrary, ({ slots, existing, capLimit, posts, earliestOffset }) => {
        const profile = profileOf(slots, existing, capOf(existing, capLimit));
        const earliest = weekStart + earliestOffset;
        const plan = new SlotPlan(new Map([[1, profile]]), earliest);
        const placed: number[] = [];
        for (let index = 0; index < posts; index++) {
          const placement = plan.place(1, ['tiktok'], days);
          if ('obstacle' in placement) {
            // Once one does not fit, a later one (same rules, fuller plan) does not either.
            expect('obstacle' in plan.place(1, ['tiktok'], days)).toBe(true);
            break;
          }
          placed.push(placement.at);
        }
        expectEveryRuleKept(placed, { slots, existing, capLimit, earliest });
      }),
      { numRuns: 300 },
    );
  });

  it('spreads evenly within every rule: each day it posts within one post of the others while the days have room, the rest earliest-free', () => {
    fc.assert(
      fc.property(planArbitrary, ({ slots, existing, capLimit, posts, earliestOffset }) => {
        const earliest = weekStart + earliestOffset;
        const plan = new SlotPlan(new Map([[1, profileOf(slots, existing, capOf(existing, capLimit))]]), earliest);
        const answers = plan.placeEvenly(1, ['tiktok'], days, posts);
        expect(answers).toHaveLength(posts);
        const placed = answers.flatMap((answer) => ('at' in answer ? [answer.at] : []));
        // In time order, the placed first.
        expect(answers.slice(0, placed.length).every((answer) => 'at' in answer)).toBe(true);
        expect(placed).toEqual([...placed].sort((a, b) => a - b));
        expectEveryRuleKept(placed, { slots, existing, capLimit, earliest });
        // With nothing there before and no cap, a day that still had room is never two posts below the busiest.
        if (existing.length === 0 && capLimit === null) {
          const perDay = new Map<string, number>();
          for (const at of placed) perDay.set(kyivWallTime(at).slice(0, 10), (perDay.get(kyivWallTime(at).slice(0, 10)) ?? 0) + 1);
          const busiest = Math.max(0, ...perDay.values());
          const fresh = new SlotPlan(new Map([[1, profileOf(slots, placed, null)]]), earliest);
          for (const open of days) {
            if ((perDay.get(open) ?? 0) >= busiest - 1) continue;
            // A quieter day had no room left for one more.
            expect('obstacle' in fresh.place(1, ['tiktok'], [open]), open).toBe(true);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('names the cap that closes the days, the hours when the window has passed, and the days when it posts on none', () => {
    const slots = { from: '09:00', to: '22:00', minGapMinutes: 60, days: [1, 2, 3, 4, 5, 6, 7] };
    const capped = new SlotPlan(
      new Map([[1, profileOf(slots, [], { platform: 'tiktok', limit: 2, windowMs: day, times: [] })]]),
      weekStart,
    );
    capped.place(1, ['tiktok'], ['2026-12-07']);
    capped.place(1, ['tiktok'], ['2026-12-07']);
    expect(capped.place(1, ['tiktok'], ['2026-12-07'])).toEqual({ obstacle: { kind: 'cap', platform: 'tiktok', limit: 2, windowMs: day } });

    const late = new SlotPlan(new Map([[1, profileOf(slots, [], null)]]), weekStart + 23 * hour);
    expect(late.place(1, ['tiktok'], ['2026-12-07'])).toEqual({ obstacle: { kind: 'hours' } });

    const weekends = new SlotPlan(new Map([[1, profileOf({ ...slots, days: [6, 7] }, [], null)]]), weekStart);
    expect(weekends.place(1, ['tiktok'], ['2026-12-07', '2026-12-08'])).toEqual({ obstacle: { kind: 'day' } });
  });

  it('checks a single move against days, hours, gap and cap', () => {
    const slots = { from: '09:00', to: '22:00', minGapMinutes: 120, days: [1, 2, 3, 4, 5] };
    const at = (wall: string) => dayjs.tz(wall, 'Europe/Kiev').valueOf();
    const existing = [at('2026-12-07T12:00'), at('2026-12-07T16:00')];
    const plan = new SlotPlan(
      new Map([[1, profileOf(slots, existing, { platform: 'tiktok', limit: 2, windowMs: day, times: [...existing] })]]),
      weekStart,
    );
    expect(plan.check(1, ['tiktok'], at('2026-12-12T10:00'))).toEqual({ kind: 'day' });
    expect(plan.check(1, ['tiktok'], at('2026-12-08T08:55'))).toEqual({ kind: 'hours' });
    expect(plan.check(1, ['tiktok'], at('2026-12-08T22:05'))).toEqual({ kind: 'hours' });
    expect(plan.check(1, ['tiktok'], at('2026-12-07T11:55'))).toEqual({ kind: 'gap', minutes: 120 });
    expect(plan.check(1, ['tiktok'], at('2026-12-07T18:00'))).toEqual({ kind: 'cap', platform: 'tiktok', limit: 2, windowMs: day });
    // Before the first post of the window, the later windows would overflow too.
    expect(plan.check(1, ['tiktok'], at('2026-12-07T09:00'))).toEqual({ kind: 'cap', platform: 'tiktok', limit: 2, windowMs: day });
    expect(plan.check(1, ['tiktok'], at('2026-12-08T14:00'))).toBeNull();
    expect(plan.check(1, ['tiktok'], at('2026-12-08T22:00'))).toBeNull();
  });
});

describe('pacificDay', () => {
  it('agrees with the time-zone database on every hour, summer and winter', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.parse('2025-01-01T00:00:00Z'), max: Date.parse('2028-12-31T00:00:00Z') }), (at) => {
        const start = dayjs(at).tz(pacificTimezone).startOf('day');
        const end = dayjs.tz(start.add(1, 'day').format('YYYY-MM-DD'), pacificTimezone);
        expect(pacificDay(new Date(at))).toEqual({ start: start.toDate(), end: end.toDate() });
      }),
      { numRuns: 500 },
    );
  });
});
