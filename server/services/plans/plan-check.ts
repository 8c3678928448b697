import type { SessionUser } from '../../../src/lib/contract';
import { dayjs } from '../../../src/lib/dates';
import { displayTimezone, formatDate, kyivWallTime, yearAheadWallTime } from '../../../src/lib/kyiv-time';
import { platformIds, platformOf, platforms } from '../../../src/lib/platforms';
import { postRefusal, refusalText, resolveChoices, type ResolvedOptions } from '../../../src/lib/posting-rules';
import { addTags } from '../../../src/lib/tags';
import { t } from '../../messages';
import type { Database } from '../../db/connect';
import { accounts } from '../../db/schema';
import { inArray } from 'drizzle-orm';
import { visibleOwner } from '../../auth/ownership';
import { publishKey, type Platform } from '../../platforms/types';
import { accountOption } from '../profiles/account-views';
import { savedDefaults } from '../publishing/posting-rules';
import { daysBetween, insertSorted, type SlotPlan } from '../planning/slot-plan';
import { loadPlan, obstacleText, type SpreadSettings } from '../planning/spread';
import { ownWords, platformText, wordsOf, type OwnWords, type PlatformTexts, type PostText } from '../../../src/lib/post-texts';
import { plannedWords, templateProfile } from '../publishing/post-words';
import type { PlanLine } from './plan-file';

/**
 * Every row of a plan checked before anything is saved (issue 43.3, 43.5): whose the video and the
 * profile are, whether the video is ready, the profile posts there, the date, duplicates in the
 * file and in the calendar, the profile's slots, gap and caps (the spread's SlotPlan), and the
 * platform's own rules. The rows are read in a fixed number of statements, whatever their number,
 * and checked in memory, the dated rows first in the file's order, then the undated ones placed
 * where the spread would put them.
 *
 * A dated row within its profile's gap of another post is a possible duplicate, saved only when
 * the operator allows it; a video named again on a platform is refused outright. Both are read
 * from the rows already loaded rather than by server/services/planning/duplicates.ts, whose
 * queries would repeat them: its gap is the slot plan's gap checked here, and its repeat leaves a
 * failed post to be retried, where a plan row may not add a second post beside it.
 */

type Account = typeof accounts.$inferSelect;

export interface PlanTexts {
  /** The post's own words; null is its video's (the request's). */
  title: string | null;
  description: string | null;
  tags: string[] | null;
}

/** A row as the preview keeps it, and as the confirm checks it again. */
export interface CheckedRow extends PlanTexts {
  line: number;
  state: 'new' | 'unchanged' | 'refused';
  reason?: string;
  /** Refused as a possible duplicate only (within its profile's gap of another post): saved when the operator allows duplicates. */
  duplicate?: true;
  videoId?: number;
  requestId?: number;
  accountId?: number;
  platform?: Platform;
  /** When it goes out, epoch milliseconds. */
  at?: number;
  /** The platform's choices it is sent with: the profile's remembered ones over the platform's defaults. */
  options?: ResolvedOptions;
  /** What the post keeps of its words once filled for it ({profile}, {n}, {date}, spintax), as a publish keeps them: null where they are its set's. */
  words?: OwnWords;
}

const minute = 60_000;
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const kyivDate = /^(\d{1,2})\.(\d{1,2})\.(\d{4})\s+(\d{1,2}):(\d{2})$/;

/** Kyiv wall times to moments, memoised: a month's plan names a few hundred distinct times over thousands of rows. */
const moments = new Map<string, number>();
function kyivMomentOf(text: string): number | null {
  const match = kyivDate.exec(text);
  if (!match) return null;
  const [, day, month, year, hour, minutes] = match as unknown as string[];
  const wall = `${year}-${month!.padStart(2, '0')}-${day!.padStart(2, '0')}T${hour!.padStart(2, '0')}:${minutes}`;
  let at = moments.get(wall);
  if (at === undefined) {
    const parsed = dayjs.tz(wall, displayTimezone);
    // dayjs rolls 31.02 over to March: a date that does not read back as typed does not exist.
    if (!parsed.isValid() || kyivWallTime(parsed.valueOf()) !== wall) return null;
    at = parsed.valueOf();
    if (moments.size > 50_000) moments.clear();
    moments.set(wall, at);
  }
  return at;
}

const platformByWord = new Map<string, Platform>(
  platforms.flatMap((platform) => [
    [platform.id, platform.id],
    [t.platform.names[platform.id].toLocaleLowerCase('uk'), platform.id],
  ]),
);

interface VideoRow {
  id: number;
  requestId: number;
  userId: number;
  position: number;
  ready: boolean;
  idUpload: string;
  durationSeconds: number | null;
  fps: number | null;
  frame: { width: number; height: number } | null;
  texts: PostText;
  /** The set's own words per platform (issue 43.2), which a row's empty cells take before the set's. */
  platformTexts: PlatformTexts | undefined;
}

interface ExistingPost {
  videoId: number;
  platform: Platform;
  accountId: number | null;
  unstarted: boolean;
  at: number;
  texts: PlanTexts;
}

/** The rows behind a file's rows, read by four statements whatever their number. */
async function readRows(db: Database, user: SessionUser, videoIds: number[], idUploads: string[]) {
  const owner = visibleOwner(user);
  const where = `(v.id = ANY($1::int[]) OR r.id_upload = ANY($2::uuid[])) AND ($3::int IS NULL OR v.user_id = $3)`;
  const values = [videoIds, idUploads, owner];
  const [videoRows, postRows] = await Promise.all([
    db.sql(
      `SELECT v.id, v.request_id, v.user_id, v.position, v.file_key IS NOT NULL AND r.status IN ('success', 'published') AS ready,
              v.duration_seconds, v.frame_rate, v.width, v.height, r.id_upload, r.title, r.description, r.tags, r.platform_texts
         FROM videos v JOIN creation_requests r ON r.id = v.request_id
        WHERE ${where} ORDER BY v.request_id, v.position`,
      values,
    ),
    db.sql(
      `SELECT p.video_id, p.platform, p.account_id, p.status = 'pending' AND p.started_at IS NULL AS unstarted,
              COALESCE(p.published_at, p.scheduled_at) AS at, p.title, p.description, p.tags
         FROM video_posts p JOIN videos v ON v.id = p.video_id JOIN creation_requests r ON r.id = v.request_id
        WHERE ${where}`,
      values,
    ),
  ]);
  const videos: VideoRow[] = videoRows.rows.map((row) => ({
    id: row.id,
    requestId: row.request_id,
    userId: row.user_id,
    position: row.position,
    ready: row.ready,
    idUpload: row.id_upload,
    durationSeconds: row.duration_seconds,
    fps: row.frame_rate,
    frame: row.width && row.height ? { width: row.width, height: row.height } : null,
    texts: { title: row.title ?? '', description: row.description, tags: row.tags },
    platformTexts: row.platform_texts ?? undefined,
  }));
  const posts: ExistingPost[] = postRows.rows.map((row) => ({
    videoId: row.video_id,
    platform: row.platform,
    accountId: row.account_id,
    unstarted: row.unstarted,
    at: new Date(row.at).getTime(),
    texts: { title: row.title, description: row.description, tags: row.tags },
  }));
  // The profiles a row may name are its video's owner's: an operator's own, an admin's those of the videos' owners.
  const owners = [...new Set(videos.map((video) => video.userId))];
  const profiles = owners.length === 0 ? [] : await db.orm.select().from(accounts).where(inArray(accounts.userId, owners));
  return { videos, posts, profiles };
}

/** What a profile cell names: `12`, `#12` or `#12 Назва` by number, anything else by its name. */
const profileNumber = /^#?(\d{1,10})(?:\s|$)/;

/** The names a profile answers to: its comment's first line, and the label its option shows. */
function profileNames(account: Account): string[] {
  const comment = account.comments.trim().split('\n')[0]!.trim();
  const label = account.comments || account.youtubeLogin || account.instagramLogin || '';
  return [...new Set([comment, label.trim()].filter((name) => name !== ''))].map((name) => name.toLocaleLowerCase('uk'));
}

const sameTags = (a: string[], b: string[]) => a.length === b.length && a.every((tag, index) => tag === b[index]);

function sameWords(left: PostText, right: PostText): boolean {
  return left.title === right.title && left.description === right.description && sameTags(left.tags, right.tags);
}

/**
 * The words a row's post goes out with at `at`: its cells over its platform's text (the set's
 * where empty), filled for its profile, variant and date and with its own spintax seed, exactly as
 * a publish fills a post's (plannedWords), so a retry and a second check say the same.
 */
function filledWords(row: Work, at: number): PostText {
  const video = row.video!;
  const template = platformText(video.texts, video.platformTexts, row.platform!);
  const text = {
    title: row.title ?? template.title,
    description: row.description ?? template.description,
    tags: row.tags ?? template.tags,
  };
  return plannedWords(text, undefined, {
    videoId: video.id,
    accountId: row.accountId!,
    platform: row.platform!,
    scheduledAt: new Date(at),
    profile: templateProfile(row.account!),
    number: video.position + 1,
  });
}

/** A post's time in the plan: a video's posts on one profile at one time count once for the gap, as they go out together. */
class PlanTimes {
  private readonly videoTimes = new Map<string, Set<number>>();
  private readonly unsettled: { accountId: number; at: number }[] = [];

  constructor(private readonly plan: SlotPlan) {}

  note(accountId: number, videoId: number, at: number) {
    const key = `${accountId}:${videoId}`;
    const times = this.videoTimes.get(key) ?? new Set();
    times.add(at);
    this.videoTimes.set(key, times);
  }

  /** Why the post may not go out then; its own video's post at the same time on the profile is not in its way. */
  check(accountId: number, videoId: number, platform: Platform, at: number, options: { gap: boolean }) {
    const profile = this.plan.profile(accountId)!;
    const shared = this.videoTimes.get(`${accountId}:${videoId}`)?.has(at) ?? false;
    const index = shared ? profile.times.indexOf(at) : -1;
    if (index >= 0) profile.times.splice(index, 1);
    const obstacle = this.plan.check(accountId, [platform], at, options);
    if (index >= 0) profile.times.splice(index, 0, at);
    return obstacle;
  }

  take(accountId: number, videoId: number, platform: Platform, at: number) {
    const profile = this.plan.profile(accountId)!;
    if (!(this.videoTimes.get(`${accountId}:${videoId}`)?.has(at) ?? false)) insertSorted(profile.times, at);
    const cap = profile.caps.get(platform);
    if (cap) insertSorted(cap.times, at);
    this.note(accountId, videoId, at);
  }

  /**
   * A possible duplicate the operator may still save: it counts against the caps at once, and
   * against the gap only once the dated rows are checked (`settle`), so a later row is measured
   * against the posts that are surely saved, and an undated row is placed clear of it too.
   */
  aside(accountId: number, videoId: number, platform: Platform, at: number) {
    const profile = this.plan.profile(accountId)!;
    const cap = profile.caps.get(platform);
    if (cap) insertSorted(cap.times, at);
    if (!(this.videoTimes.get(`${accountId}:${videoId}`)?.has(at) ?? false)) this.unsettled.push({ accountId, at });
    this.note(accountId, videoId, at);
  }

  settle() {
    for (const { accountId, at } of this.unsettled) insertSorted(this.plan.profile(accountId)!.times, at);
    this.unsettled.length = 0;
  }
}

/** A row on its way through the checks: what it names so far, and the first reason it is refused. */
interface Work extends CheckedRow {
  video?: VideoRow;
  account?: Account;
}

export interface CheckSettings extends SpreadSettings {
  /** The plan looks this far ahead for an undated row's slot, and refuses a date past it. */
  horizonDays?: number;
}

/**
 * The file's rows checked as a whole, in the file's order, for `user`: each comes back new,
 * unchanged (a post already scheduled exactly so) or refused with its reason.
 */
export async function checkPlan(db: Database, user: SessionUser, lines: PlanLine[], settings: CheckSettings): Promise<CheckedRow[]> {
  const now = settings.now;
  const refuse = (row: Work, why: string) => {
    row.state = 'refused';
    row.reason = t.plans.row(row.line, why);
  };
  const reasons = t.plans.reasons;
  const platformName = (platform: Platform) => t.platform.names[platform];

  // 1. What each row names, read from its cells alone.
  const rows: Work[] = lines.map(({ line, cells }) => {
    const tags = cells.tags === '' ? null : addTags([], cells.tags);
    const row: Work = {
      line,
      state: 'new',
      title: cells.title === '' ? null : cells.title,
      description: cells.description === '' ? null : cells.description,
      tags,
    };
    if (cells.videoId !== '' && !/^\d{1,10}$/.test(cells.videoId)) refuse(row, reasons.badVideoId(cells.videoId));
    else if (cells.videoId === '' && cells.idUpload === '') refuse(row, reasons.videoMissing);
    else if (cells.idUpload !== '' && !uuidPattern.test(cells.idUpload)) refuse(row, reasons.badIdUpload(cells.idUpload));
    else if (cells.profile === '') refuse(row, reasons.profileMissing);
    else if (cells.platform === '') refuse(row, reasons.platformMissing);
    else {
      const platform = platformByWord.get(cells.platform.toLocaleLowerCase('uk'));
      if (!platform) refuse(row, reasons.unknownPlatform(cells.platform, platformIds.join(', ')));
      else row.platform = platform;
    }
    if (row.state !== 'refused' && cells.date !== '') {
      const at = kyivMomentOf(cells.date);
      if (at === null) refuse(row, reasons.badDate(cells.date));
      else if (at < now - minute) refuse(row, reasons.pastDate(cells.date));
      else if (kyivWallTime(at) > yearAheadWallTime(now)) refuse(row, reasons.tooFarAhead(cells.date));
      else row.at = at;
    }
    return row;
  });

  // 2. The videos, their posts and the owners' profiles, whatever the number of rows.
  const named = rows.filter((row) => row.state !== 'refused');
  const cellsOf = new Map(lines.map((line) => [line.line, line.cells]));
  const videoIds = [...new Set(named.flatMap((row) => (cellsOf.get(row.line)!.videoId ? [Number(cellsOf.get(row.line)!.videoId)] : [])))];
  const idUploads = [
    ...new Set(named.flatMap((row) => (cellsOf.get(row.line)!.idUpload ? [cellsOf.get(row.line)!.idUpload.toLowerCase()] : []))),
  ];
  const { videos, posts, profiles } = await readRows(db, user, videoIds, idUploads);
  const videoById = new Map(videos.map((video) => [video.id, video]));
  const requestVideos = new Map<string, VideoRow[]>();
  for (const video of videos) requestVideos.set(video.idUpload, [...(requestVideos.get(video.idUpload) ?? []), video]);
  const postOf = new Map(posts.map((post) => [`${post.videoId}:${post.platform}`, post]));
  const profileById = new Map(profiles.map((account) => [account.id, account]));
  const profilesByName = new Map<string, Account[]>();
  for (const account of profiles) {
    for (const name of profileNames(account))
      profilesByName.set(`${account.userId}:${name}`, [...(profilesByName.get(`${account.userId}:${name}`) ?? []), account]);
  }

  // 3. Each row's video, profile and platform; a video named by its request takes the first one not yet planned there.
  const fileLines = new Map<string, number>();
  for (const row of named) {
    const cells = cellsOf.get(row.line)!;
    const platform = row.platform!;
    let video: VideoRow | undefined;
    if (cells.videoId) {
      video = videoById.get(Number(cells.videoId));
      if (!video) {
        refuse(row, reasons.videoNotFound(Number(cells.videoId)));
        continue;
      }
      if (cells.idUpload && video.idUpload !== cells.idUpload.toLowerCase()) {
        refuse(row, reasons.videoNotInRequest(video.id, cells.idUpload));
        continue;
      }
    } else {
      const candidates = requestVideos.get(cells.idUpload.toLowerCase());
      if (!candidates) {
        refuse(row, reasons.requestNotFound(cells.idUpload));
        continue;
      }
      video = candidates.find((each) => !postOf.has(`${each.id}:${platform}`) && !fileLines.has(`${each.id}:${platform}`));
      if (!video) {
        refuse(row, reasons.noFreeVideo(platformName(platform)));
        continue;
      }
    }
    row.video = video;
    row.videoId = video.id;
    row.requestId = video.requestId;
    if (!video.ready) {
      refuse(row, reasons.notRendered(video.id));
      continue;
    }

    const number = profileNumber.exec(cells.profile);
    const found = number
      ? [profileById.get(Number(number[1]))].filter((account) => account?.userId === video.userId)
      : (profilesByName.get(`${video.userId}:${cells.profile.toLocaleLowerCase('uk')}`) ?? []);
    if (found.length > 1) {
      refuse(row, reasons.profileAmbiguous(cells.profile));
      continue;
    }
    const account = found[0];
    if (!account) {
      refuse(row, reasons.profileNotFound(cells.profile));
      continue;
    }
    row.account = account;
    row.accountId = account.id;
    const title = accountOption(account).title;
    if (!account[platformOf(platform).fields.switchedOn]) {
      refuse(row, reasons.platformOff(title, platformName(platform)));
      continue;
    }

    const key = `${video.id}:${platform}`;
    const earlier = fileLines.get(key);
    if (earlier !== undefined) {
      refuse(row, reasons.twiceInFile(earlier, platformName(platform)));
      continue;
    }
    fileLines.set(key, row.line);
    const existing = postOf.get(key);
    if (existing) {
      const same =
        existing.unstarted &&
        existing.accountId === account.id &&
        (row.at === undefined || Math.floor(row.at / minute) === Math.floor(existing.at / minute)) &&
        sameWords(wordsOf(existing.texts, video.texts), filledWords(row, existing.at));
      if (same) {
        row.state = 'unchanged';
        row.at = existing.at;
      } else if (existing.unstarted) refuse(row, reasons.alreadyPlanned(platformName(platform), formatDate(existing.at)));
      else refuse(row, reasons.alreadyOut(platformName(platform)));
    }
  }

  // 4. The platform's rules, with the profile's remembered choices, and the slots, gaps and caps.
  const checked = rows.filter((row) => row.state === 'new');
  const used = [...new Map(checked.map((row) => [row.account!.id, row.account!])).values()];
  const platformsOfProfile = new Map<number, Set<Platform>>();
  for (const row of checked)
    platformsOfProfile.set(row.accountId!, (platformsOfProfile.get(row.accountId!) ?? new Set()).add(row.platform!));
  const horizonDays = settings.horizonDays ?? 366;
  const [saved, { plan, slots }] = await Promise.all([
    savedDefaults(
      db,
      used.map((account) => account.id),
    ),
    loadPlan(
      db,
      {
        profiles: used,
        platformsOf: (account) => [...(platformsOfProfile.get(account.id) ?? [])],
        skipVideos: [],
        start: now,
        end: now + horizonDays * 86_400_000,
        withHistory: false,
      },
      settings,
    ),
  ]);
  const times = new PlanTimes(plan);
  for (const post of posts) {
    if (post.accountId !== null && plan.profile(post.accountId)) times.note(post.accountId, post.videoId, post.at);
  }

  for (const row of checked) {
    const account = row.account!;
    const platform = row.platform!;
    const video = row.video!;
    const title = accountOption(account).title;
    const choices = resolveChoices(platform, undefined, saved.get(account.id) ?? {});
    if (choices.refusal) {
      refuse(row, refusalText(choices.refusal, title));
      continue;
    }
    row.options = choices.options;
    // An undated row's date is not known yet; {date} fills to the same ten characters whatever it is.
    const words = filledWords(row, row.at ?? now);
    row.words = ownWords(words, video.texts);
    const refusal = postRefusal(
      platform,
      choices.options,
      {
        number: video.position + 1,
        durationSeconds: video.durationSeconds,
        fps: video.fps,
        frame: video.frame,
        publishKey: publishKey(video.id, platform),
      },
      words,
      null,
    );
    if (refusal) refuse(row, refusalText(refusal, title));
  }

  const days = daysBetween(kyivWallTime(now).slice(0, 10), kyivWallTime(now + horizonDays * 86_400_000).slice(0, 10));
  const dated = checked.filter((row) => row.state === 'new' && row.at !== undefined);
  const undated = checked.filter((row) => row.state === 'new' && row.at === undefined);
  for (const row of dated) {
    const [accountId, videoId, platform, at] = [row.accountId!, row.videoId!, row.platform!, row.at!];
    const profileSlots = slots.get(accountId)!;
    let obstacle = times.check(accountId, videoId, platform, at, { gap: true });
    // Within the gap of another post is a possible duplicate (issue 43.5), the operator's to allow; its hours, days and caps are not.
    const gap = obstacle?.kind === 'gap' ? obstacle : null;
    if (gap) obstacle = times.check(accountId, videoId, platform, at, { gap: false });
    if (obstacle) refuse(row, reasons.slot(accountOption(row.account!).title, obstacleText(obstacle, profileSlots)));
    else if (gap) {
      refuse(row, reasons.duplicate(accountOption(row.account!).title, obstacleText(gap, profileSlots)));
      row.duplicate = true;
      times.aside(accountId, videoId, platform, at);
    } else times.take(accountId, videoId, platform, at);
  }
  times.settle();
  for (const row of undated) {
    const placement = plan.place(row.accountId!, [row.platform!], days);
    if ('obstacle' in placement) {
      refuse(row, reasons.noSlot(accountOption(row.account!).title, obstacleText(placement.obstacle, slots.get(row.accountId!)!)));
      continue;
    }
    row.at = placement.at;
    row.words = ownWords(filledWords(row, placement.at), row.video!.texts);
    times.note(row.accountId!, row.videoId!, placement.at);
  }

  return rows.map(({ video: _video, account: _account, ...row }) =>
    row.state === 'refused' && !row.duplicate
      ? {
          line: row.line,
          state: row.state,
          reason: row.reason,
          title: null,
          description: null,
          tags: null,
          videoId: row.videoId,
          accountId: row.accountId,
          platform: row.platform,
        }
      : row,
  );
}
