import { dayjs } from '../../../src/lib/dates';
import { displayTimezone, kyivWallTime } from '../../../src/lib/kyiv-time';
import { slotMinutes } from '../../../src/lib/schemas';
import type { PostingSlots } from '../../../src/lib/contract';
import type { Platform } from '../../platforms/types';
import { pacificDay } from '../../platforms/youtube/caps';

/**
 * The plan the spread fills and a calendar move is checked against (issue 31.3, 31.4): each
 * profile's posts and each cap's counted posts as sorted times, and the rules a new post must
 * keep: its profile's hours and days in Kyiv, the gap to its profile's other posts, and every
 * cap its platforms count it against, for the posts already there as much as for itself. Pure
 * and in memory: the caller reads the rows once (server/services/planning/spread.ts), so 400 videos are
 * placed without a query each.
 */

const minute = 60_000;
/** Proposed times fall on five-minute marks, as the slots' own hours do. */
export const gridMs = 5 * minute;
/** Two posts of one profile are never proposed closer than this, even with no gap set: "not at once". */
const leastGapMs = gridMs;

/** A cap as the plan counts it: `limit` posts in a moving window of `windowMs`, or (null) in YouTube's Pacific day. */
export interface PlanCap {
  platform: Platform;
  limit: number;
  windowMs: number | null;
  /** The times already counted against it (published or planned), sorted. */
  times: number[];
}

export interface PlanProfile {
  id: number;
  slots: PostingSlots;
  /** Its posts' times, one per video (a video's platforms go out together), sorted. */
  times: number[];
  /** The caps each of its platforms counts against; two profiles on one Google project share one YouTube cap. */
  caps: Map<Platform, PlanCap>;
  /** Kyiv hours to try first, best first, when its history is deep enough; empty for plain first-free. */
  preferredHours: number[];
}

/** Why a time is not free. */
export type Obstacle =
  | { kind: 'hours' }
  | { kind: 'day' }
  | { kind: 'gap'; minutes: number }
  | { kind: 'cap'; platform: Platform; limit: number; windowMs: number | null };

interface Problem {
  obstacle: Obstacle;
  /** The earliest time that obstacle could be gone. */
  retryAt: number;
}

/** Index of the first time in `times` above `at` (binary search). */
function firstAfter(times: number[], at: number): number {
  let low = 0;
  let high = times.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (times[middle]! <= at) low = middle + 1;
    else high = middle;
  }
  return low;
}

export function insertSorted(times: number[], at: number) {
  times.splice(firstAfter(times, at), 0, at);
}

/** Takes one `at` out of the sorted `times`. */
function removeSorted(times: number[], at: number) {
  const index = firstAfter(times, at) - 1;
  if (times[index] === at) times.splice(index, 1);
}

const ceilToGrid = (at: number) => Math.ceil(at / gridMs) * gridMs;

/** How many of the sorted `times` fall in (from, to]. */
const countIn = (times: number[], from: number, to: number) => firstAfter(times, to) - firstAfter(times, from);

/** The Kyiv wall time of a day and a clock time as a moment; memoised, as the plan asks the same few thousand times. */
const kyivMoments = new Map<string, number>();
function kyivMoment(day: string, clock: string): number {
  const key = `${day}T${clock}`;
  let at = kyivMoments.get(key);
  if (at === undefined) {
    at = dayjs.tz(key, displayTimezone).valueOf();
    if (kyivMoments.size > 50_000) kyivMoments.clear();
    kyivMoments.set(key, at);
  }
  return at;
}

/** The Kyiv midnight that ends a `YYYY-MM-DD` day (23, 24 or 25 hours after its start). */
function nextKyivMidnight(day: string): number {
  const next = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  return kyivMoment(next, '00:00');
}

const twoDigits = (value: number) => String(value).padStart(2, '0');
const clockOf = (minutes: number) => `${twoDigits(Math.floor(minutes / 60))}:${twoDigits(minutes % 60)}`;

/** ISO weekday (1 Monday … 7 Sunday) of a `YYYY-MM-DD` date. */
export function isoWeekday(day: string): number {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
  return weekday === 0 ? 7 : weekday;
}

/** The `YYYY-MM-DD` dates from `from` to `to`, both included. */
export function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let at = Date.parse(`${from}T00:00:00Z`); at <= Date.parse(`${to}T00:00:00Z`); at += 86_400_000) {
    days.push(new Date(at).toISOString().slice(0, 10));
  }
  return days;
}

/** A profile's posting window on a Kyiv day, as moments; the end itself is still inside. */
function windowOn(profile: PlanProfile, day: string): { start: number; end: number } {
  return { start: kyivMoment(day, profile.slots.from), end: kyivMoment(day, profile.slots.to) };
}

const pacificDays = new Map<number, { start: number; end: number }>();
/** YouTube's Pacific day holding `at`; memoised by the UTC hour, which never spans two Pacific days. */
function pacificDayOf(at: number): { start: number; end: number } {
  const hourKey = Math.floor(at / (60 * minute));
  let found = pacificDays.get(hourKey);
  if (!found) {
    const { start, end } = pacificDay(new Date(at));
    found = { start: start.getTime(), end: end.getTime() };
    if (pacificDays.size > 50_000) pacificDays.clear();
    pacificDays.set(hourKey, found);
  }
  return found;
}

/**
 * Whether one more post at `at` keeps the cap: the window ending at it has room, and so does each
 * window ending at a later counted post that it would also fall in.
 */
function capProblem(cap: PlanCap, at: number): Problem | null {
  const obstacle: Obstacle = { kind: 'cap', platform: cap.platform, limit: cap.limit, windowMs: cap.windowMs };
  if (cap.windowMs === null) {
    const day = pacificDayOf(at);
    return countIn(cap.times, day.start - 1, day.end - 1) >= cap.limit ? { obstacle, retryAt: day.end } : null;
  }
  const length = cap.windowMs;
  const upTo = firstAfter(cap.times, at);
  const inWindow = upTo - firstAfter(cap.times, at - length);
  // The window (at - length, at] holds `inWindow`; the oldest must age out until fewer than `limit` are left.
  if (inWindow >= cap.limit) return { obstacle, retryAt: cap.times[upTo - cap.limit]! + length };
  for (let index = upTo; index < cap.times.length && cap.times[index]! < at + length; index += 1) {
    const later = cap.times[index]!;
    if (countIn(cap.times, later - length, later) + 1 > cap.limit) return { obstacle, retryAt: later + 1 };
  }
  return null;
}

/** What stands in the way of `profile` posting at `at` on `platforms`, besides its hours and days; the gap unless `withGap` is false. */
function problemAt(profile: PlanProfile, platforms: Platform[], at: number, withGap = true): Problem | null {
  const gapMs = Math.max(profile.slots.minGapMinutes * minute, leastGapMs);
  const next = firstAfter(profile.times, at - gapMs);
  const neighbour = profile.times[next];
  if (withGap && neighbour !== undefined && neighbour < at + gapMs) {
    return { obstacle: { kind: 'gap', minutes: profile.slots.minGapMinutes }, retryAt: neighbour + gapMs };
  }
  for (const platform of platforms) {
    const cap = profile.caps.get(platform);
    const problem = cap && capProblem(cap, at);
    if (problem) return problem;
  }
  return null;
}

/** The first free time in [start, end] on the grid, or the obstacles met on the way. */
function firstFreeIn(profile: PlanProfile, platforms: Platform[], start: number, end: number, met: Obstacle[]): number | null {
  for (let at = ceilToGrid(start); at <= end;) {
    const problem = problemAt(profile, platforms, at);
    if (!problem) return at;
    met.push(problem.obstacle);
    at = Math.max(ceilToGrid(problem.retryAt), at + gridMs);
  }
  return null;
}

export interface Placement {
  at: number;
  /** The preferred hour it took, when the profile's history chose it. */
  preferredHour: number | null;
  /** What pushed it to this time, the last obstacle met; null when the first try was free. */
  delayedBy: Obstacle | null;
}

export interface NoPlacement {
  /** What closed most of the days: the one to name. Days when the profile posts on none in range. */
  obstacle: Obstacle;
}

/** The rules every placement keeps, and the plan of times it adds to. */
export class SlotPlan {
  constructor(
    private readonly profiles: Map<number, PlanProfile>,
    /** Nothing is proposed before this moment. */
    private readonly earliest: number,
  ) {}

  profile(id: number): PlanProfile | undefined {
    return this.profiles.get(id);
  }

  /**
   * The earliest free time for a post of `profileId` on `platforms` in the Kyiv days given: on
   * each day it posts, its preferred hours first (when its history chose any), then the rest of
   * its window in order.
   */
  place(profileId: number, platforms: Platform[], days: string[]): Placement | NoPlacement {
    const profile = this.profiles.get(profileId)!;
    const met: Obstacle[] = [];
    // What closed each day it posts on: the last obstacle met there, the one that ran past its window.
    const closedBy: Obstacle[] = [];
    for (const day of days) {
      if (!profile.slots.days.includes(isoWeekday(day))) continue;
      const window = windowOn(profile, day);
      const start = Math.max(window.start, this.earliest);
      if (start > window.end) {
        closedBy.push({ kind: 'hours' });
        continue;
      }
      const metBefore = met.length;
      for (const hour of profile.preferredHours) {
        const hourStart = kyivMoment(day, clockOf(hour * 60));
        // A preferred hour's obstacles explain nothing: the plain scan of the day below meets them again.
        const at = firstFreeIn(profile, platforms, Math.max(start, hourStart), Math.min(window.end, hourStart + 60 * minute - 1), []);
        if (at !== null) return this.take(profile, platforms, { at, preferredHour: hour, delayedBy: null });
      }
      const at = firstFreeIn(profile, platforms, start, window.end, met);
      if (at !== null) return this.take(profile, platforms, { at, preferredHour: null, delayedBy: met[met.length - 1] ?? null });
      closedBy.push(met.length > metBefore ? met[met.length - 1]! : { kind: 'hours' });
    }
    return { obstacle: mostOften(closedBy) ?? { kind: 'day' } };
  }

  /**
   * Issue 43.1: `count` posts of `profileId` on `platforms` spread over the Kyiv days given, in time
   * order. First how many go on each day: one at a time to the day where the profile posts least
   * (its posts already there counted, so the calendar comes out even, not just this batch), ties
   * to the day this whole spread has filled least (`dayTotals`, shared across the profiles of one
   * spread, so their odd posts do not all land on the first day), then the earliest; a day no post
   * fits in any more drops out. Then each day's posts are laid out again: the profile's preferred
   * hours first, the rest at even steps across the window rather than bunched at its start. What
   * cannot be laid out so (a cap's moving window reaching over from the day before) takes the
   * earliest free slot of the range, as `place` would; what fits nowhere says why.
   */
  placeEvenly(
    profileId: number,
    platforms: Platform[],
    days: string[],
    count: number,
    dayTotals: Map<string, number> = new Map(),
  ): (Placement | NoPlacement)[] {
    const profile = this.profiles.get(profileId)!;
    const open = days.filter(
      (day) => profile.slots.days.includes(isoWeekday(day)) && this.startOn(profile, day) <= windowOn(profile, day).end,
    );
    const load = new Map(open.map((day) => [day, countIn(profile.times, kyivMoment(day, '00:00') - 1, nextKyivMidnight(day) - 1)]));
    const perDay = new Map<string, number>();
    const tentative: number[] = [];
    while (tentative.length < count && load.size > 0) {
      let best: string | null = null;
      for (const day of load.keys()) {
        if (best === null) best = day;
        else {
          const byLoad = load.get(day)! - load.get(best)!;
          if (byLoad < 0 || (byLoad === 0 && (dayTotals.get(day) ?? 0) < (dayTotals.get(best) ?? 0))) best = day;
        }
      }
      const at = firstFreeIn(profile, platforms, this.startOn(profile, best!), windowOn(profile, best!).end, []);
      if (at === null) {
        load.delete(best!);
        continue;
      }
      this.take(profile, platforms, { at, preferredHour: null, delayedBy: null });
      tentative.push(at);
      load.set(best!, load.get(best!)! + 1);
      perDay.set(best!, (perDay.get(best!) ?? 0) + 1);
      dayTotals.set(best!, (dayTotals.get(best!) ?? 0) + 1);
    }
    for (const at of tentative) this.release(profile, platforms, at);

    const placed: (Placement | NoPlacement)[] = [];
    for (const day of open) {
      const posts = perDay.get(day) ?? 0;
      if (posts === 0) continue;
      const start = this.startOn(profile, day);
      const { end } = windowOn(profile, day);
      const inDay: (Placement | NoPlacement)[] = [];
      for (const hour of profile.preferredHours) {
        if (inDay.length === posts) break;
        const hourStart = kyivMoment(day, clockOf(hour * 60));
        const at = firstFreeIn(profile, platforms, Math.max(start, hourStart), Math.min(end, hourStart + 60 * minute - 1), []);
        if (at === null) continue;
        inDay.push(this.take(profile, platforms, { at, preferredHour: hour, delayedBy: null }));
      }
      const rest = posts - inDay.length;
      const span = end - start;
      // Centred steps (a lone post mid-window) while they keep the gap; else from the window's start to its end.
      const centred = span / rest >= Math.max(profile.slots.minGapMinutes * minute, leastGapMs);
      for (let index = 0; index < rest; index++) {
        const target = centred ? start + ((index + 0.5) * span) / rest : start + (index * span) / Math.max(rest - 1, 1);
        const at = firstFreeIn(profile, platforms, target, end, []) ?? firstFreeIn(profile, platforms, start, end, []);
        inDay.push(
          at === null
            ? this.place(profileId, platforms, days)
            : this.take(profile, platforms, { at, preferredHour: null, delayedBy: null }),
        );
      }
      placed.push(...inDay);
    }
    while (placed.length < count) placed.push(this.place(profileId, platforms, days));
    const at = (placement: Placement | NoPlacement) => ('at' in placement ? placement.at : Number.POSITIVE_INFINITY);
    return placed.sort((one, other) => at(one) - at(other));
  }

  /**
   * Why `profileId` may not post at `at` on `platforms`: outside its days or hours, too close to
   * another post (unless `gap` is false: a move leaves that to the duplicates' warning, which the
   * operator may overrule, issue 43.5), or past a cap.
   */
  check(profileId: number, platforms: Platform[], at: number, { gap = true }: { gap?: boolean } = {}): Obstacle | null {
    const profile = this.profiles.get(profileId)!;
    const [day, clock] = kyivWallTime(at).split('T') as [string, string];
    if (!profile.slots.days.includes(isoWeekday(day))) return { kind: 'day' };
    const minutes = Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5));
    if (minutes < slotMinutes(profile.slots.from)! || minutes > slotMinutes(profile.slots.to)!) return { kind: 'hours' };
    return problemAt(profile, platforms, at, gap)?.obstacle ?? null;
  }

  /** Where a post may start on a Kyiv day: its window's start, or the plan's earliest moment when later. */
  private startOn(profile: PlanProfile, day: string): number {
    return Math.max(windowOn(profile, day).start, this.earliest);
  }

  private release(profile: PlanProfile, platforms: Platform[], at: number) {
    removeSorted(profile.times, at);
    for (const platform of platforms) {
      const cap = profile.caps.get(platform);
      if (cap) removeSorted(cap.times, at);
    }
  }

  private take(profile: PlanProfile, platforms: Platform[], placement: Placement): Placement {
    insertSorted(profile.times, placement.at);
    for (const platform of platforms) {
      const cap = profile.caps.get(platform);
      if (cap) insertSorted(cap.times, placement.at);
    }
    return placement;
  }
}

/** The obstacle that closed most days, caps first on a tie: the one that explains a plan that does not fit. */
function mostOften(met: Obstacle[]): Obstacle | null {
  const counts = new Map<string, { obstacle: Obstacle; count: number }>();
  for (const obstacle of met) {
    const key = obstacle.kind === 'cap' ? `cap:${obstacle.platform}` : obstacle.kind;
    const entry = counts.get(key) ?? { obstacle, count: 0 };
    entry.count += 1;
    counts.set(key, entry);
  }
  let best: { obstacle: Obstacle; count: number } | null = null;
  for (const entry of counts.values()) {
    if (!best || entry.count > best.count || (entry.count === best.count && entry.obstacle.kind === 'cap')) best = entry;
  }
  return best?.obstacle ?? null;
}
