import type { EffectiveSlots, PostingSlots, SpreadMode, SpreadProposal } from '../../../src/lib/contract';
import { assignAccounts } from '../../../src/lib/assignment';
import { dayjs } from '../../../src/lib/dates';
import { displayTimezone, kyivWallTime } from '../../../src/lib/kyiv-time';
import { slotMinutes } from '../../../src/lib/schemas';
import { t } from '../../messages';
import type { Database } from '../../db/connect';
import { accounts } from '../../db/schema';
import { platformOf } from '../../../src/lib/platforms';
import type { Platform, PostingCapSettings, PublishingLimit } from '../../platforms/types';
import { accountOption } from '../profiles/account-views';
import { capOf } from './posting-caps';
import { profileSlots } from './posting-slots';
import { platformsOf, type PlatformFlags } from '../publishing/publication-plan';
import {
  daysBetween,
  gridMs,
  SlotPlan,
  type NoPlacement,
  type Obstacle,
  type Placement,
  type PlanCap,
  type PlanProfile,
} from './slot-plan';

/**
 * "Розподілити" (issue 31.3): each video's profile (its own, else the i-th rule) and a slot of that
 * profile from `from` to `to`, spread evenly over those days (issue 43.1) or the earliest free,
 * read in a fixed number of queries whatever the number of videos, and placed in memory by SlotPlan. A calendar move is checked by the same
 * plan (placementObstacle). Nothing here writes.
 */

type Account = typeof accounts.$inferSelect;

/** A profile's history chooses its hours once it has this many posts with figures from their first 48 hours. */
export const historyPostsNeeded = 30;
/** Nothing is proposed sooner than this from now: the operator still reads the proposal and saves it. */
const proposalLeadMs = 15 * 60_000;
const hourMs = 3_600_000;
const dayMs = 24 * hourMs;
/** How far from the planned days a counted post can still share a cap's window or a gap: the longest window, a day. */
const ledgerMarginMs = 2 * dayMs;

export interface SpreadSettings {
  now: number;
  installationSlots: PostingSlots;
  postingCaps: PostingCapSettings;
  /** A profile's cap as its platform reports it (Instagram's); null when unknown or not published (the post is tried, and held if refused). */
  liveCapOf: (account: Account, platform: Platform) => Promise<PublishingLimit | null>;
}

export interface SpreadInput extends PlatformFlags {
  from: string;
  to: string;
  /** Issue 43.1: even over the days (the default), or each video in the earliest free slot as before. */
  mode?: SpreadMode;
  accounts: { id: number }[];
  video: { id: number; account?: { id: number } | null }[];
}

interface HourFigure {
  views: number;
  posts: number;
}

interface ProfileHistory {
  /** Posts with views known from their first 48 hours. */
  posts: number;
  /** Their mean views in the first 48 hours. */
  meanViews: number;
  /** Mean views in the first 48 hours by the Kyiv hour the post went out. */
  byHour: Map<number, HourFigure>;
}

const kyivHourFormat = new Intl.DateTimeFormat('en-GB', { timeZone: displayTimezone, hour: '2-digit', hourCycle: 'h23' });
const kyivHour = (at: number) => Number(kyivHourFormat.format(at));

/**
 * Each profile's posts with their views at 48 hours (the last figure read by then), grouped by the
 * Kyiv hour they went out. Posts of the last half year: an audience's hours drift.
 */
async function histories(db: Database, ids: number[], now: number): Promise<Map<number, ProfileHistory>> {
  const { rows } = await db.sql(
    `SELECT p.account_id, p.published_at,
            (SELECT s.views FROM stats_points s
              WHERE s.post_id = p.id AND s.at <= p.published_at + interval '48 hours'
              ORDER BY s.at DESC LIMIT 1) AS views
       FROM video_posts p
      WHERE p.account_id = ANY($1::int[]) AND p.status = 'done' AND p.published_at >= $2`,
    [ids, new Date(now - 183 * dayMs)],
  );
  const found = new Map<number, { posts: number; views: number; sums: Map<number, HourFigure> }>();
  for (const row of rows) {
    if (row.views === null) continue;
    const entry = found.get(row.account_id as number) ?? { posts: 0, views: 0, sums: new Map() };
    const hour = kyivHour(new Date(row.published_at as string).getTime());
    const sum = entry.sums.get(hour) ?? { views: 0, posts: 0 };
    sum.views += Number(row.views);
    sum.posts += 1;
    entry.sums.set(hour, sum);
    entry.posts += 1;
    entry.views += Number(row.views);
    found.set(row.account_id as number, entry);
  }
  return new Map(
    [...found].map(([id, { posts, views, sums }]) => [
      id,
      {
        posts,
        meanViews: Math.round(views / posts),
        byHour: new Map([...sums].map(([hour, sum]) => [hour, { views: Math.round(sum.views / sum.posts), posts: sum.posts }])),
      },
    ]),
  );
}

/** The Kyiv hours of a window whose posts gained more than the profile's mean, best first, when the history is deep enough. */
function preferredHours(slots: PostingSlots, history: ProfileHistory | undefined): number[] {
  if (!history || history.posts < historyPostsNeeded) return [];
  const first = Math.floor(slotMinutes(slots.from)! / 60);
  const last = Math.floor(slotMinutes(slots.to)! / 60);
  return [...history.byHour]
    .filter(([hour, figure]) => hour >= first && hour <= last && figure.views > history.meanViews)
    .sort((a, b) => b[1].views - a[1].views || a[0] - b[0])
    .map(([hour]) => hour);
}

/**
 * The times already taken around [start, end): each profile's posts (one per video) and each cap
 * scope's counted posts, pending by when they are due and sent by when they went out. `skipVideos`
 * are the videos being placed or moved, whose own posts must not stand in their way.
 */
async function takenTimes(db: Database, profileIds: number[], youtubeClients: string[], skipVideos: number[], start: number, end: number) {
  const { rows } = await db.sql(
    `SELECT p.account_id, p.video_id, p.platform, a.youtube_client_id, p.scheduled_at AS at
       FROM video_posts p JOIN accounts a ON a.id = p.account_id
      WHERE p.status = 'pending' AND p.scheduled_at >= $1 AND p.scheduled_at < $2
        AND (p.account_id = ANY($3::int[]) OR (p.platform = 'youtube' AND a.youtube_client_id = ANY($4::text[])))
     UNION ALL
     SELECT p.account_id, p.video_id, p.platform, a.youtube_client_id, p.published_at AS at
       FROM video_posts p JOIN accounts a ON a.id = p.account_id
      WHERE p.status = 'done' AND p.published_at >= $1 AND p.published_at < $2
        AND (p.account_id = ANY($3::int[]) OR (p.platform = 'youtube' AND a.youtube_client_id = ANY($4::text[])))`,
    [new Date(start), new Date(end), profileIds, youtubeClients],
  );
  // Left out here rather than in SQL: `<> ALL` of 400 ids costs PGlite more than the rows it drops.
  const skipped = new Set(skipVideos);
  return rows
    .filter((row) => !skipped.has(row.video_id as number))
    .map((row) => ({
      accountId: row.account_id as number,
      videoId: row.video_id as number,
      platform: row.platform as Platform,
      youtubeClientId: row.youtube_client_id as string | null,
      at: new Date(row.at as string).getTime(),
    }));
}

export interface PlanSetup {
  profiles: Account[];
  /** The platforms each profile posts on in this plan. */
  platformsOf: (account: Account) => Platform[];
  skipVideos: number[];
  start: number;
  end: number;
  withHistory: boolean;
}

/** The plan of the profiles' slots, posts and caps around [start, end). */
export async function loadPlan(
  db: Database,
  setup: PlanSetup,
  settings: SpreadSettings,
): Promise<{ plan: SlotPlan; slots: Map<number, EffectiveSlots>; history: Map<number, ProfileHistory> }> {
  const ids = setup.profiles.map((account) => account.id);
  const youtubeClients = [...new Set(setup.profiles.flatMap((account) => (account.youtubeClientId ? [account.youtubeClientId] : [])))];
  const [slots, taken, history] = await Promise.all([
    profileSlots(db, ids, settings.installationSlots),
    takenTimes(db, ids, youtubeClients, setup.skipVideos, setup.start - ledgerMarginMs, setup.end + ledgerMarginMs),
    setup.withHistory ? histories(db, ids, settings.now) : Promise.resolve(new Map<number, ProfileHistory>()),
  ]);

  // A cap's scope is one profile on a platform, or one Google project on YouTube: one shared PlanCap each.
  const caps = new Map<string, PlanCap>();
  const scopeKey = (platform: Platform, scope: { accountId: number } | { youtubeClientId: string }) =>
    'accountId' in scope ? `${platform}:${scope.accountId}` : `youtube-client:${scope.youtubeClientId}`;
  const profiles = new Map<number, PlanProfile>();
  for (const account of setup.profiles) {
    const profileCaps = new Map<Platform, PlanCap>();
    for (const platform of setup.platformsOf(account)) {
      const figure = await settings.liveCapOf(account, platform);
      const cap = capOf(platform, account, figure, settings.postingCaps);
      if (!cap) continue;
      const key = scopeKey(platform, cap.scope);
      const shared = caps.get(key) ?? { platform, limit: cap.limit, windowMs: cap.windowMs, times: [] };
      caps.set(key, shared);
      profileCaps.set(platform, shared);
    }
    const own = slots.get(account.id)!;
    profiles.set(account.id, {
      id: account.id,
      slots: own,
      times: [],
      caps: profileCaps,
      preferredHours: preferredHours(own, history.get(account.id)),
    });
  }

  const seenVideos = new Set<string>();
  for (const post of taken) {
    const profile = profiles.get(post.accountId);
    // A video's posts on several platforms go out together: one time for the gap.
    if (profile && !seenVideos.has(`${post.accountId}:${post.videoId}`)) {
      seenVideos.add(`${post.accountId}:${post.videoId}`);
      profile.times.push(post.at);
    }
    const key =
      platformOf(post.platform).cap.per === 'google-project' && post.youtubeClientId
        ? `youtube-client:${post.youtubeClientId}`
        : `${post.platform}:${post.accountId}`;
    caps.get(key)?.times.push(post.at);
  }
  for (const profile of profiles.values()) profile.times.sort((a, b) => a - b);
  for (const cap of caps.values()) cap.times.sort((a, b) => a - b);

  const earliest = Math.ceil((settings.now + proposalLeadMs) / gridMs) * gridMs;
  return { plan: new SlotPlan(profiles, earliest), slots, history };
}

/** An obstacle in the words of the reasons. */
export function obstacleText(obstacle: Obstacle, slots: PostingSlots): string {
  const words = t.spread.obstacles;
  switch (obstacle.kind) {
    case 'cap':
      return obstacle.windowMs === null
        ? words.youtubeCap(obstacle.limit)
        : words.rollingCap(t.platform.names[obstacle.platform], obstacle.limit, Math.round(obstacle.windowMs / hourMs));
    case 'gap':
      return words.gap(obstacle.minutes);
    case 'hours':
      return words.hours(slots.from, slots.to);
    case 'day':
      return words.days(slots.days.map((day) => t.spread.dayShortNames[day - 1]).join(', '));
  }
}

/**
 * Why a placed video is where it is: its profile's best hour, or the first free slot (soonest) or
 * its even share of the days (even), and what pushed it later.
 */
function reasonOf(placement: Placement, slots: PostingSlots, history: ProfileHistory | undefined, mode: SpreadMode): string {
  const posts = history?.posts ?? 0;
  const best = placement.preferredHour === null ? undefined : history?.byHour.get(placement.preferredHour);
  let why: string;
  if (best) why = t.spread.bestHour(`${String(placement.preferredHour).padStart(2, '0')}:00`, best.views, history!.meanViews, posts);
  else if (mode === 'even') why = posts >= historyPostsNeeded ? t.spread.evenBestTaken : t.spread.evenSpot(posts, historyPostsNeeded);
  else if (posts >= historyPostsNeeded) why = t.spread.firstFreeBestTaken;
  else why = t.spread.firstFree(posts, historyPostsNeeded);
  return placement.delayedBy ? `${why}; ${t.spread.later(obstacleText(placement.delayedBy, slots))}` : why;
}

/** A moment on the minute (the plan's are on five-minute marks) as ISO 8601 with Kyiv's offset. */
function isoInKyiv(at: number): string {
  const wall = kyivWallTime(at);
  const offsetMinutes = Math.round((Date.parse(`${wall}:00Z`) - at) / 60_000);
  const offset = `${String(Math.floor(offsetMinutes / 60)).padStart(2, '0')}:${String(offsetMinutes % 60).padStart(2, '0')}`;
  // Kyiv is ahead of UTC all year.
  return `${wall}:00+${offset}`;
}

const dayMonth = (day: string) => `${day.slice(8, 10)}.${day.slice(5, 7)}`;

/**
 * The proposal for a request's videos. `profiles` are the request owner's profiles the input names
 * (the caller has checked they exist); the videos are the request's, in the form's order.
 */
export async function spreadPublication(
  db: Database,
  input: SpreadInput,
  profiles: Account[],
  settings: SpreadSettings,
): Promise<SpreadProposal> {
  const profileOf = new Map(profiles.map((account) => [account.id, account]));
  const assigned = assignAccounts(
    input.video.map((item) => item.account?.id ?? null),
    input.accounts.map((account) => account.id),
  );
  const days = daysBetween(input.from, input.to);
  const start = dayjs.tz(input.from, displayTimezone).valueOf();
  const end = dayjs.tz(input.to, displayTimezone).valueOf() + dayMs + hourMs;
  const used = [...new Set(assigned.filter((id): id is number => id !== null))].map((id) => profileOf.get(id)!);
  const { plan, slots, history } = await loadPlan(
    db,
    {
      profiles: used,
      platformsOf: (account) => platformsOf(input, account),
      skipVideos: input.video.map((item) => item.id),
      start: Math.max(start, settings.now),
      end,
      withHistory: true,
    },
    settings,
  );

  const mode = input.mode ?? 'even';
  // Even: each profile's videos are placed together (their count decides the days' shares), in
  // time order by their order in the form, as the earliest-free order gives them.
  const evenly = new Map<number, (Placement | NoPlacement)[]>();
  if (mode === 'even') {
    const countOf = new Map<number, number>();
    for (const id of assigned) if (id !== null && id !== undefined) countOf.set(id, (countOf.get(id) ?? 0) + 1);
    const dayTotals = new Map<string, number>();
    for (const [id, count] of countOf) {
      const platforms = platformsOf(input, profileOf.get(id)!);
      if (platforms.length > 0) evenly.set(id, plan.placeEvenly(id, platforms, days, count, dayTotals));
    }
  }

  const answer: SpreadProposal = { data: [], unplaced: [], days: [] };
  for (const [index, item] of input.video.entries()) {
    const accountId = assigned[index];
    const account = accountId === null || accountId === undefined ? undefined : profileOf.get(accountId);
    if (!account) {
      answer.unplaced.push({ videoId: item.id, reason: t.publish.assignedNone });
      continue;
    }
    const title = accountOption(account).title;
    const platforms = platformsOf(input, account);
    if (platforms.length === 0) {
      answer.unplaced.push({ videoId: item.id, reason: t.spread.noPlatform(title) });
      continue;
    }
    const own = slots.get(account.id)!;
    const placement = mode === 'even' ? evenly.get(account.id)!.shift()! : plan.place(account.id, platforms, days);
    if ('obstacle' in placement) {
      answer.unplaced.push({ videoId: item.id, reason: t.spread.noSlot(title, dayMonth(input.to), obstacleText(placement.obstacle, own)) });
      continue;
    }
    answer.data.push({
      videoId: item.id,
      accountId: account.id,
      date: isoInKyiv(placement.at),
      reason: reasonOf(placement, own, history.get(account.id), mode),
    });
  }
  answer.days = postsByDay(answer.data);
  return answer;
}

/** How many of the proposed posts each profile gets on each Kyiv day, by day, then profile. */
function postsByDay(data: SpreadProposal['data']): NonNullable<SpreadProposal['days']> {
  const counts = new Map<string, { day: string; accountId: number; posts: number }>();
  for (const item of data) {
    const day = item.date.slice(0, 10);
    const key = `${day}:${item.accountId}`;
    const entry = counts.get(key) ?? { day, accountId: item.accountId, posts: 0 };
    entry.posts += 1;
    counts.set(key, entry);
  }
  return [...counts.values()].sort((one, other) => one.day.localeCompare(other.day) || one.accountId - other.accountId);
}

export interface MoveCheck {
  account: Account;
  platforms: Platform[];
  /** The video being moved: its own posts do not stand in its way. */
  videoId: number;
  at: number;
  /** False leaves the profile's gap to the duplicates' warning (server/services/planning/duplicates.ts), which the operator may overrule. */
  gap?: boolean;
}

/** Why a scheduled video may not move to `at` on its profile, in words; null when the move keeps every rule. */
export async function moveObstacle(db: Database, move: MoveCheck, settings: SpreadSettings): Promise<string | null> {
  const { plan, slots } = await loadPlan(
    db,
    {
      profiles: [move.account],
      platformsOf: () => move.platforms,
      skipVideos: [move.videoId],
      start: move.at,
      end: move.at,
      withHistory: false,
    },
    settings,
  );
  const obstacle = plan.check(move.account.id, move.platforms, move.at, { gap: move.gap ?? true });
  return obstacle && t.spread.moveRefused(accountOption(move.account).title, obstacleText(obstacle, slots.get(move.account.id)!));
}
