import { memo, useCallback, useId, useMemo, useState, type MouseEvent } from 'react';
import { useLocation } from 'wouter';
import { useSelector } from '@xstate/react';
import {
  DndContext,
  DragOverlay,
  KeyboardCode,
  KeyboardSensor,
  MouseSensor,
  pointerWithin,
  TouchSensor,
  useDraggable,
  useDroppable,
  useSensor,
  useSensors,
  type Announcements,
  type CollisionDetection,
  type DragEndEvent,
  type DragStartEvent,
  type KeyboardCoordinateGetter,
} from '@dnd-kit/core';
import { ChevronLeft, ChevronRight, Download, Pause, RotateCw, Upload } from 'lucide-react';
import { daysOf, inMonth, kyivDay, kyivTime, periodTitle, weekdayIndex, type CalendarView, type Day } from '../../lib/calendar';
import type { CalendarPost, EffectiveSlots, PostState } from '../../lib/contract';
import * as t from '../../lib/i18n';
import { formatDate } from '../../lib/kyiv-time';
import { calendarMachine, undoWindowMs, type CalendarContext } from '../../machines/calendar-machine';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { LoadError } from '../../components/load-error';
import { Page } from '../../components/page';
import { SegmentedButtons } from '../../components/segmented-buttons';
import { useMediaQuery } from '../../components/use-media-query';
import { useScreenActor } from '../../components/use-screen-actor';
import { useUndoCancelToast } from '../../components/undo-cancel-toast';
import tones from '../../components/badge-tones.module.css';
import { PlanExportDialog, PlanImportDialog } from './plan-dialogs';
import styles from './calendar-screen.module.css';

/** Posts a month cell lists before it offers the rest in the day's week. */
const postsPerMonthCell = 3;
const views: CalendarView[] = ['week', 'month'];
/** Where a month's cells become too narrow for an entry's title: they count the day's posts instead (the CSS says the same width). */
const phoneWidth = '(max-width: 768px)';
/** Where the keyboard goes when the undo toast it was on ends. */
const periodHeadingId = 'calendar-period';

/** What a dragged post carries: the post, and the day it is on. */
interface DragData {
  post: CalendarPost;
  day: Day;
}

/** A day's date as its week shows it, `Пн 23.11`. */
function dayName(day: Day): string {
  const [, month, date] = day.split('-');
  return `${t.calendar.weekdays[weekdayIndex(day)]} ${date}.${month}`;
}

/**
 * A post's key, kept across a move: the server writes a moved video's posts anew (new ids), so the
 * video and platform name it, and the keyboard stays on the post it moved.
 */
const postKey = (post: CalendarPost) => `${post.videoId}:${post.platform}`;

/** A post as the drag's words name it, `10:30 YouTube: Ранковий випуск`, by its Kyiv time. */
const shortLabel = (post: CalendarPost, time = kyivTime(post.scheduledAt)) =>
  `${time} ${t.platform.names[post.platform]}: ${post.title || t.calendar.untitled}`;

/** Why a pending post waits, drawn apart: held (a cap, a quota, a connection), tried again after a failure, or behind its profile's other upload. */
function waitClass(post: CalendarPost): string {
  if (!post.waitKind) return '';
  if (post.state === 'held') return styles.held!;
  return post.waitKind === 'retry' ? styles.retry! : styles.queued!;
}

/**
 * A post's link: its time, platform and title on one line, its profile and state (or why it waits)
 * on the next (a month's narrow cell gives each its own line). The whole of it is its title, shown
 * on hover, and a month's cut lines open up while the keyboard is on the post.
 */
function PostLink({ post, time }: { post: CalendarPost; time: string }) {
  const platform = t.platform.names[post.platform];
  const title = post.title || t.calendar.untitled;
  const state = t.postStates[post.state];
  const mark = post.waitKind ? t.calendar.waitMarks[post.waitKind] : null;
  // A waiting post's mark is its state's word as shown ('Утримано: ліміт', 'Повторна спроба'), said with why.
  const said = mark ? t.calendar.waiting(mark, post.waitReason ?? '') : state;
  const label = t.calendar.postLabel(time, platform, title, post.account.title, said);
  // The label says the text shown in its order, and why a post waits after it, so speech and sight
  // name the link alike. Few elements and no flex inside: a week draws 1 260 of these.
  return (
    <a href={`/video/youtube/${post.idUpload}`} className={styles.postLink} title={label} aria-label={label}>
      <span className={styles.line}>
        <b className={styles.time}>{time}</b> {platform}: {title}
      </span>
      <span className={styles.line}>
        <span className={styles.profileName}>{post.account.title}</span>{' '}
        <span className={styles.stateWord}>
          <span className={styles.separator}>· </span>
          {post.waitKind === 'retry' ? <RotateCw size={11} aria-hidden /> : post.state === 'held' ? <Pause size={11} aria-hidden /> : null}
          {mark ?? state}
        </span>
      </span>
    </a>
  );
}

/** The post's × and its name, which says the post it cancels. */
function CancelButton({
  post,
  label,
  locked,
  onCancel,
}: {
  post: CalendarPost;
  label: string;
  locked: boolean;
  onCancel: (post: CalendarPost) => void;
}) {
  return (
    <button
      type="button"
      className={styles.cancel}
      aria-label={t.calendar.cancelPost(label)}
      disabled={locked}
      onClick={() => onCancel(post)}
    >
      ×
    </button>
  );
}

interface FixedPostProps {
  post: CalendarPost;
  time: string;
  busy: boolean;
}

/** A post that stays where it is, gone out, failed or started: it opens its set. */
function FixedPost({ post, time, busy }: FixedPostProps) {
  return (
    <li className={`${styles.post} ${styles[post.state]} ${waitClass(post)}`} aria-busy={busy}>
      <PostLink post={post} time={time} />
    </li>
  );
}

interface MovablePostProps {
  post: CalendarPost;
  /** Its Kyiv time, `HH:mm`. */
  time: string;
  day: Day;
  /** A move or a cancel is on its way: no other starts meanwhile. */
  locked: boolean;
  /** This post is one being changed. */
  busy: boolean;
  onCancel: (post: CalendarPost) => void;
}

/**
 * A scheduled post: dragged by the mouse or a finger anywhere on it, by the keyboard from its
 * handle (Space, the arrows, Space), and cancelled from its ×.
 */
function MovablePost({ post, time, day, locked, busy, onCancel }: MovablePostProps) {
  const label = shortLabel(post, time);
  const data: DragData = { post, day };
  const { setNodeRef, setActivatorNodeRef, listeners, attributes, isDragging } = useDraggable({
    id: postKey(post),
    data,
    disabled: locked,
    attributes: { roleDescription: t.calendar.dragRole },
  });
  return (
    <li
      ref={setNodeRef}
      className={`${styles.post} ${styles[post.state]} ${styles.movable} ${styles.cancellable} ${waitClass(post)} ${isDragging ? styles.lifted : ''}`}
      aria-busy={busy}
      {...listeners}
    >
      <button ref={setActivatorNodeRef} type="button" className={styles.handle} {...attributes} aria-label={t.calendar.moveHandle(label)} />
      <PostLink post={post} time={time} />
      <CancelButton post={post} label={label} locked={locked} onCancel={onCancel} />
    </li>
  );
}

/** The change on its way (the machine's): a move or a cancel of all the video's posts, or a cancel of one. */
type Change = CalendarContext['change'];

const isChanging = (post: CalendarPost, change: Change) =>
  change !== null && change.videoId === post.videoId && (change.platform === null || change.platform === post.platform);

interface PostListProps {
  posts: CalendarPost[];
  day: Day;
  change: Change;
  onCancel: (post: CalendarPost) => void;
}

function PostList({ posts, day, change, onCancel }: PostListProps) {
  const locked = change !== null;
  return (
    <ul className={styles.posts}>
      {posts.map((post) => {
        const time = kyivTime(post.scheduledAt);
        const busy = isChanging(post, change);
        return post.cancellable ? (
          <MovablePost key={postKey(post)} post={post} time={time} day={day} locked={locked} busy={busy} onCancel={onCancel} />
        ) : (
          <FixedPost key={postKey(post)} post={post} time={time} busy={busy} />
        );
      })}
    </ul>
  );
}

/** A day takes a dropped post unless it has passed: the server refuses a time gone by anyway. */
function useDayDrop(day: Day, today: Day) {
  return useDroppable({ id: day, disabled: day < today });
}

/** The mark of a phone's month cell: its most pressing post's state, a failure first. */
function countClass(posts: CalendarPost[]): string {
  if (posts.some((post) => post.state === 'failed')) return tones.danger!;
  if (posts.some((post) => post.state === 'held')) return tones.warning!;
  if (posts.some((post) => post.state === 'scheduled' || post.state === 'uploading')) return tones.info!;
  return tones.success!;
}

/** The one profile shown: its posting hours on its days (a week has room for them), 'не публікує' on the others. */
function SlotNote({ day, view, slots }: { day: Day; view: CalendarView; slots: EffectiveSlots | null }) {
  if (!slots) return null;
  if (isDayOff(day, slots)) return <span className={styles.slotNote}>{t.calendar.dayOff}</span>;
  return view === 'week' ? <span className={styles.slotNote}>{t.calendar.postingHours(slots.from, slots.to)}</span> : null;
}

const isDayOff = (day: Day, slots: EffectiveSlots | null) => slots !== null && !slots.days.includes(weekdayIndex(day) + 1);

interface CountCellProps {
  day: Day;
  today: Day;
  posts: CalendarPost[];
  outside: boolean;
  picked: boolean;
  onPick: (day: Day) => void;
}

/**
 * A phone's month cell: the date, and a count of the day's posts that picks the day for the list
 * under the month; a post dragged from that list is dropped here.
 */
const CountCell = memo(function CountCell({ day, today, posts, outside, picked, onPick }: CountCellProps) {
  const [, , date] = day.split('-');
  const { setNodeRef, isOver } = useDayDrop(day, today);
  return (
    <li
      ref={setNodeRef}
      className={`${styles.day} ${day === today ? styles.today : ''} ${outside ? styles.outside : ''} ${isOver ? styles.over : ''}`}
      data-day={day}
    >
      {posts.length > 0 ? (
        <button type="button" className={styles.dayPick} aria-pressed={picked} onClick={() => onPick(day)}>
          {/* The name is said in full; the cell shows it in short. */}
          <span className={styles.spoken}>{t.calendar.dayPosts(dayName(day), posts.length)}</span>
          <time dateTime={day} className={styles.dayHead} aria-hidden>
            {Number(date)}
          </time>
          <span className={`${styles.count} ${countClass(posts)}`} aria-hidden>
            {posts.length}
          </span>
        </button>
      ) : (
        <time dateTime={day} className={styles.dayHead}>
          {Number(date)}
        </time>
      )}
    </li>
  );
});

interface DayCellProps {
  day: Day;
  today: Day;
  view: CalendarView;
  posts: CalendarPost[];
  outside: boolean;
  slots: EffectiveSlots | null;
  change: Change;
  onMore: (day: Day) => void;
  onCancel: (post: CalendarPost) => void;
}

const DayCell = memo(function DayCell({ day, today, view, posts, outside, slots, change, onMore, onCancel }: DayCellProps) {
  const [, , date] = day.split('-');
  const shown = view === 'month' ? posts.slice(0, postsPerMonthCell) : posts;
  const { setNodeRef, isOver } = useDayDrop(day, today);
  return (
    <li
      ref={setNodeRef}
      className={`${styles.day} ${day === today ? styles.today : ''} ${outside ? styles.outside : ''} ${isDayOff(day, slots) ? styles.dayOff : ''} ${isOver ? styles.over : ''}`}
      data-day={day}
    >
      <div className={styles.dayTop}>
        <time dateTime={day} className={styles.dayHead}>
          {view === 'week' ? dayName(day) : Number(date)}
        </time>
        <SlotNote day={day} view={view} slots={slots} />
      </div>
      {shown.length > 0 && <PostList posts={shown} day={day} change={change} onCancel={onCancel} />}
      {posts.length > shown.length && (
        <button type="button" className={styles.more} onClick={() => onMore(day)}>
          {t.calendar.more(posts.length - shown.length)}
        </button>
      )}
    </li>
  );
});

/** How far an arrow moves a post: a day either way; in a month, up and down a week. */
function stepOf(code: string, view: CalendarView): number {
  switch (code) {
    case KeyboardCode.Right:
      return 1;
    case KeyboardCode.Left:
      return -1;
    case KeyboardCode.Down:
      return view === 'month' ? 7 : 1;
    case KeyboardCode.Up:
      return view === 'month' ? -7 : -1;
    default:
      return 0;
  }
}

/**
 * The keyboard moves a post from day to day, not by pixels: each arrow puts it under the next
 * day's date, inside the day however short (a day gone by takes none, so the post stays).
 */
function dayStepper(days: Day[], view: CalendarView): KeyboardCoordinateGetter {
  return (event, { context: { active, over, collisionRect, droppableRects } }) => {
    const step = stepOf(event.code, view);
    if (step === 0) return undefined;
    event.preventDefault();
    if (!active || !collisionRect) return undefined;
    const from = (over?.id as Day | undefined) ?? (active.data.current as DragData).day;
    const target = days[days.indexOf(from) + step];
    const rect = target === undefined ? undefined : droppableRects.get(target);
    if (!rect) return undefined;
    return {
      x: rect.left + rect.width / 2 - collisionRect.width / 2,
      y: rect.top + Math.min(rect.height / 2, 40) - collisionRect.height / 2,
    };
  };
}

/** The mouse and a finger drop where the pointer is; the keyboard where the dragged post's middle is. */
const dayUnder: CollisionDetection = (args) => {
  if (args.pointerCoordinates) return pointerWithin(args);
  const { collisionRect } = args;
  return pointerWithin({
    ...args,
    pointerCoordinates: { x: collisionRect.left + collisionRect.width / 2, y: collisionRect.top + collisionRect.height / 2 },
  });
};

const dragOf = (data: unknown) => data as DragData;

/** What a screen reader hears while a post is dragged, in Ukrainian (dnd-kit speaks English of its own). */
const announcements: Announcements = {
  onDragStart: ({ active }) => {
    const { post, day } = dragOf(active.data.current);
    return t.calendar.pickedUp(shortLabel(post), dayName(day));
  },
  onDragOver: ({ active, over }) => {
    const { post } = dragOf(active.data.current);
    return over ? t.calendar.over(shortLabel(post), dayName(over.id as Day)) : t.calendar.outside(shortLabel(post));
  },
  onDragEnd: ({ active, over }) => {
    const { post, day } = dragOf(active.data.current);
    if (!over) return t.calendar.dragCancelled(shortLabel(post));
    if (over.id === day) return t.calendar.droppedHome(shortLabel(post));
    return t.calendar.dropped(shortLabel(post), dayName(over.id as Day), kyivTime(post.scheduledAt));
  },
  onDragCancel: ({ active }) => t.calendar.dragCancelled(shortLabel(dragOf(active.data.current).post)),
};

/** The looks a post takes, each with its words: the calendar's legend. */
const legendEntries: { look: string; words: string }[] = [
  ...(['scheduled', 'uploading', 'published', 'held', 'failed'] satisfies PostState[]).map((state) => ({
    look: styles[state]!,
    words: t.postStates[state],
  })),
  { look: styles.retry!, words: t.calendar.waitMarks.retry },
];

function Legend() {
  const id = useId();
  return (
    <div className={styles.legend}>
      <span id={id}>{t.calendarPosts.legend}</span>
      <ul aria-labelledby={id}>
        {legendEntries.map(({ look, words }) => (
          <li key={words}>
            <span className={`${styles.swatch} ${look}`} aria-hidden />
            {words}
          </li>
        ))}
      </ul>
    </div>
  );
}

interface CancelDialogProps {
  post: CalendarPost;
  /** The video's posts on its other platforms that the calendar shows. */
  others: CalendarPost[];
  onClose: () => void;
  onCancel: (allPlatforms: boolean) => void;
}

/**
 * What a cancel takes, asked first: the post named (its video, platform, profile and time), the
 * video's other posts that stay, and, while none of them has started, cancelling them all as a
 * choice of its own.
 */
function CancelDialog({ post, others, onClose, onCancel }: CancelDialogProps) {
  const platform = t.platform.names[post.platform];
  const offersAll = post.changeable && others.length > 0;
  const stay = others.map((other) =>
    t.calendarPosts.otherPost(t.platform.names[other.platform], formatDate(other.scheduledAt), t.postStates[other.state]),
  );
  const consequence = [
    ...(stay.length > 0 ? [t.calendarPosts.othersStay(stay.join('; '))] : []),
    ...(offersAll ? [t.calendarPosts.othersWithAll] : []),
    t.calendarPosts.undoFor(undoWindowMs / 1000),
  ].join(' ');
  return (
    <ConfirmDialog
      question={t.calendarPosts.cancelQuestion(post.videoId, platform)}
      details={
        <dl className={styles.whatGoes}>
          <dt>{t.calendarPosts.video}</dt>
          <dd>{t.calendarPosts.videoTitle(post.videoId, post.title)}</dd>
          <dt>{t.calendarPosts.platform}</dt>
          <dd>{platform}</dd>
          <dt>{t.calendarPosts.profile}</dt>
          <dd>{post.account.title}</dd>
          <dt>{t.calendarPosts.time}</dt>
          <dd>{formatDate(post.scheduledAt)}</dd>
        </dl>
      }
      consequence={consequence}
      action={t.calendarPosts.cancelPost(platform)}
      dismiss={t.postTruth.keepSchedule}
      alternative={offersAll ? { action: t.calendarPosts.cancelAll, onPick: () => onCancel(true) } : undefined}
      onCancel={onClose}
      onConfirm={() => onCancel(false)}
    />
  );
}

const noLines: string[] = [];

/** The filter's value: '' for every profile, `a5` for profile #5, `g3` for group #3. */
const filterValue = (accountId: number | null, groupId: number | null) =>
  accountId !== null ? `a${accountId}` : groupId !== null ? `g${groupId}` : '';

/**
 * /calendar: scheduled and published posts by Kyiv day, a week or a month at a time, per profile
 * or group; a scheduled post is dragged to another day at the same time, or cancelled.
 */
export function CalendarScreen() {
  const [, navigate] = useLocation();
  const profileFieldId = useId();
  const actor = useScreenActor(calendarMachine, { id: 'calendar' });
  const { view, anchor, today, accountId, groupId, range, error, change, undoable } = useSelector(actor, (snapshot) => snapshot.context);
  // Asked while the machine waits on them; while the forced move is on its way the dialog is gone.
  const duplicates = useSelector(actor, (snapshot) => (snapshot.matches('confirmingDuplicate') ? snapshot.context.duplicates : noLines));
  const loading = useSelector(actor, (snapshot) => snapshot.matches({ browsing: 'loading' }));
  const counted = useMediaQuery(phoneWidth) && view === 'month';
  const [picked, setPicked] = useState<Day | null>(null);
  const [dragged, setDragged] = useState<CalendarPost | null>(null);
  const [confirming, setConfirming] = useState<CalendarPost | null>(null);
  const [planDialog, setPlanDialog] = useState<'import' | 'export' | null>(null);
  const dayListId = useId();

  const days = useMemo(() => daysOf(view, anchor), [view, anchor]);
  const postsOf = useMemo(() => {
    const byDay = new Map<Day, CalendarPost[]>();
    for (const post of range?.posts ?? []) {
      const day = kyivDay(post.scheduledAt);
      const list = byDay.get(day);
      if (list) list.push(post);
      else byDay.set(day, [post]);
    }
    return byDay;
  }, [range]);
  // The day whose posts a phone lists under the month: the one picked, else the next with posts.
  const postDays = days.filter((day) => postsOf.has(day));
  const listedDay =
    (picked !== null && postDays.includes(picked) ? picked : null) ?? postDays.find((day) => day >= today) ?? postDays.at(-1) ?? null;
  const profiles = range?.accounts ?? [];
  const profileOptions =
    accountId === null || profiles.some((profile) => profile.id === accountId)
      ? profiles
      : [...profiles, { id: accountId, title: t.accounts.optionTitle(accountId, '') }];
  const groups = range?.groups ?? [];
  const groupOptions =
    groupId === null || groups.some((group) => group.id === groupId)
      ? groups
      : [...groups, { id: groupId, title: t.calendar.groupOption(groupId) }];
  const slots = range?.slots ?? null;

  const stepper = useMemo(() => dayStepper(days, view), [days, view]);
  const sensors = useSensors(
    useSensor(MouseSensor, { activationConstraint: { distance: 5 } }),
    // A finger scrolls the calendar; held still for a moment, it picks the post up.
    useSensor(TouchSensor, { activationConstraint: { delay: 250, tolerance: 5 } }),
    useSensor(KeyboardSensor, {
      coordinateGetter: stepper,
      // Space picks up and drops; Enter keeps opening links and pressing buttons.
      keyboardCodes: { start: [KeyboardCode.Space], cancel: [KeyboardCode.Esc], end: [KeyboardCode.Space] },
    }),
  );
  const onMore = useCallback((day: Day) => actor.send({ type: 'day.open', day }), [actor]);
  const onPlanSaved = useCallback(() => actor.send({ type: 'reload' }), [actor]);
  const onPick = useCallback((day: Day) => setPicked(day), []);
  const onCancel = useCallback((post: CalendarPost) => setConfirming(post), []);
  const onDragStart = useCallback(({ active }: DragStartEvent) => setDragged(dragOf(active.data.current).post), []);
  const onDragEnd = useCallback(
    ({ active, over }: DragEndEvent) => {
      setDragged(null);
      if (over) actor.send({ type: 'post.move', post: dragOf(active.data.current).post, day: over.id as Day });
    },
    [actor],
  );
  useUndoCancelToast(
    undoable?.videoId ?? null,
    () => actor.send({ type: 'cancel.restore' }),
    periodHeadingId,
    undoable?.platform ? t.platform.names[undoable.platform] : null,
  );
  // A post's link opens its set inside the app, as wouter's Link does: one handler for a week's
  // 1 260 links rather than a Link, and its subscription to the location, each.
  const openSet = (event: MouseEvent<HTMLElement>) => {
    const link = (event.target as Element).closest('a');
    if (!link || event.button !== 0 || event.ctrlKey || event.metaKey || event.altKey || event.shiftKey) return;
    event.preventDefault();
    navigate(link.getAttribute('href')!);
  };

  return (
    <Page title={t.calendar.title}>
      <div className={styles.toolbar}>
        <SegmentedButtons
          label={t.calendar.view}
          options={views}
          selected={view}
          labelOf={(option) => t.calendar[option]}
          onPick={(option) => actor.send({ type: 'view.pick', view: option })}
        />
        <div className={styles.navigation}>
          <Button variant="secondary" aria-label={t.calendar.previous} onClick={() => actor.send({ type: 'period.previous' })}>
            <ChevronLeft size={16} aria-hidden />
          </Button>
          <Button variant="secondary" onClick={() => actor.send({ type: 'period.today' })}>
            {t.calendar.today}
          </Button>
          <Button variant="secondary" aria-label={t.calendar.next} onClick={() => actor.send({ type: 'period.next' })}>
            <ChevronRight size={16} aria-hidden />
          </Button>
          <h2 id={periodHeadingId} tabIndex={-1} className={styles.period} aria-live="polite">
            {periodTitle(view, anchor)}
          </h2>
        </div>
        <div className={styles.profile}>
          <label htmlFor={profileFieldId}>{t.calendar.profile}</label>
          <select
            id={profileFieldId}
            value={filterValue(accountId, groupId)}
            onChange={({ target: { value } }) => {
              if (value.startsWith('g')) actor.send({ type: 'group.pick', groupId: Number(value.slice(1)) });
              else actor.send({ type: 'account.pick', accountId: value ? Number(value.slice(1)) : null });
            }}
          >
            <option value="">{t.calendar.allProfiles}</option>
            {groupOptions.length > 0 && (
              <optgroup label={t.calendar.groups}>
                {groupOptions.map((group) => (
                  <option key={group.id} value={`g${group.id}`}>
                    {group.title}
                  </option>
                ))}
              </optgroup>
            )}
            {profileOptions.length > 0 && (
              <optgroup label={t.calendar.profiles}>
                {profileOptions.map((profile) => (
                  <option key={profile.id} value={`a${profile.id}`}>
                    {profile.title}
                  </option>
                ))}
              </optgroup>
            )}
          </select>
        </div>
        <div className={styles.planActions}>
          <Button variant="secondary" onClick={() => setPlanDialog('import')}>
            <Upload size={16} aria-hidden /> {t.plans.importAction}
          </Button>
          <Button variant="secondary" onClick={() => setPlanDialog('export')}>
            <Download size={16} aria-hidden /> {t.plans.exportAction}
          </Button>
        </div>
      </div>

      {error ? <LoadError error={error} /> : null}
      {range && range.posts.length === 0 && <p className={styles.note}>{t.calendar.empty}</p>}
      {range?.truncated && <p className={styles.note}>{t.calendar.truncated(range.posts.length)}</p>}
      {/* Said while the first week loads too: the grid below it would otherwise move down when the posts come. */}
      {(range ? range.posts.some((post) => post.cancellable) : !error) && <p className={styles.note}>{t.calendar.hint}</p>}
      <Legend />

      {/* Clicks, Enter's included, come up from the links inside; each link is reached and said on its own. */}
      {/* eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-static-element-interactions */}
      <div onClick={openSet}>
        <DndContext
          sensors={sensors}
          collisionDetection={dayUnder}
          accessibility={{ announcements, screenReaderInstructions: { draggable: t.calendar.dragInstructions } }}
          onDragStart={onDragStart}
          onDragEnd={onDragEnd}
          onDragCancel={() => setDragged(null)}
        >
          <div className={`${styles.calendar} ${styles[view]}`} aria-busy={loading}>
            <div className={styles.weekdays} aria-hidden>
              {t.calendar.weekdays.map((weekday) => (
                <span key={weekday}>{weekday}</span>
              ))}
            </div>
            <ol className={styles.days}>
              {days.map((day) =>
                counted ? (
                  <CountCell
                    key={day}
                    day={day}
                    today={today}
                    posts={postsOf.get(day) ?? []}
                    outside={!inMonth(day, anchor)}
                    picked={day === listedDay}
                    onPick={onPick}
                  />
                ) : (
                  <DayCell
                    key={day}
                    day={day}
                    today={today}
                    view={view}
                    posts={postsOf.get(day) ?? []}
                    outside={view === 'month' && !inMonth(day, anchor)}
                    slots={slots}
                    change={change}
                    onMore={onMore}
                    onCancel={onCancel}
                  />
                ),
              )}
            </ol>
          </div>
          {counted && listedDay !== null && (
            <section className={styles.dayList} aria-labelledby={dayListId}>
              <h3 id={dayListId} className={styles.dayListTitle}>
                {t.calendar.dayList(dayName(listedDay))}
              </h3>
              <PostList posts={postsOf.get(listedDay)!} day={listedDay} change={change} onCancel={onCancel} />
            </section>
          )}
          <DragOverlay dropAnimation={null}>
            {dragged && (
              <div className={`${styles.post} ${styles[dragged.state]} ${styles.overlay} ${waitClass(dragged)}`}>
                <b className={styles.time}>{kyivTime(dragged.scheduledAt)}</b> {t.platform.names[dragged.platform]}:{' '}
                {dragged.title || t.calendar.untitled}
              </div>
            )}
          </DragOverlay>
        </DndContext>
      </div>
      {confirming && (
        <CancelDialog
          post={confirming}
          others={range?.posts.filter((post) => post.videoId === confirming.videoId && post.platform !== confirming.platform) ?? []}
          onClose={() => setConfirming(null)}
          onCancel={(allPlatforms) => {
            setConfirming(null);
            actor.send({ type: 'post.cancel', post: confirming, allPlatforms });
          }}
        />
      )}
      {planDialog === 'import' && <PlanImportDialog onClose={() => setPlanDialog(null)} onSaved={onPlanSaved} />}
      {planDialog === 'export' && (
        <PlanExportDialog
          from={days[0]!}
          to={days[days.length - 1]!}
          profiles={profileOptions}
          groups={groupOptions}
          onClose={() => setPlanDialog(null)}
        />
      )}
      {duplicates.length > 0 && (
        <ConfirmDialog
          question={t.spread.moveDuplicateQuestion}
          details={
            <ul className={styles.duplicates}>
              {duplicates.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          }
          consequence={t.spread.moveDuplicateConsequence}
          action={t.spread.moveAnyway}
          onConfirm={() => actor.send({ type: 'duplicate.confirm' })}
          onCancel={() => actor.send({ type: 'duplicate.dismiss' })}
        />
      )}
    </Page>
  );
}
