import { useId, useState } from 'react';
import { Link } from 'wouter';
import { useSelector } from '@xstate/react';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { daysOf, inMonth, kyivDay, kyivTime, periodTitle, type CalendarView, type Day } from '../../lib/calendar';
import type { CalendarPost } from '../../lib/contract';
import { t } from '../../lib/i18n';
import { calendarMachine } from '../../machines/calendar-machine';
import { Button } from '../../components/button';
import { LoadError } from '../../components/load-error';
import { Page } from '../../components/page';
import { SegmentedButtons } from '../../components/segmented-buttons';
import { useMediaQuery } from '../../components/use-media-query';
import { useScreenActor } from '../../components/use-screen-actor';
import styles from './calendar-screen.module.css';

/** Posts a month cell lists before it offers the rest in the day's week. */
const postsPerMonthCell = 3;
const views: CalendarView[] = ['week', 'month'];
/** Where a month's cells become too narrow for an entry's title: they count the day's posts instead (the CSS says the same width). */
const phoneWidth = '(max-width: 768px)';

function PostLink({ post }: { post: CalendarPost }) {
  const time = kyivTime(post.scheduledAt);
  const platform = t.platform.names[post.platform];
  const title = post.title || t.calendar.untitled;
  const status = t.calendar.postStatus[post.status];
  const mark = post.waitKind && t.calendar.waitMarks[post.waitKind];
  const label = t.calendar.postLabel(
    time,
    platform,
    title,
    post.account.title,
    mark ? `${status}, ${t.calendar.waiting(mark, post.waitReason ?? '')}` : status,
  );
  // The label starts with the text shown, so speech and sight name the link alike.
  return (
    <Link
      href={`/video/youtube/${post.idUpload}`}
      className={`${styles.post} ${styles[post.status]} ${mark ? styles.held : ''}`}
      title={label}
      aria-label={label}
    >
      <span className={styles.time}>{time}</span> <span className={styles.platform}>{platform}:</span>{' '}
      <span className={styles.postTitle}>{title}</span>
      {mark && <span className={styles.heldMark}>{mark}</span>}
    </Link>
  );
}

/** A day's date as its week shows it, `Пн 23.11`. */
function dayName(day: Day, weekday: string): string {
  const [, month, date] = day.split('-');
  return `${weekday} ${date}.${month}`;
}

/** The mark of a phone's month cell: its most pressing post's state, a failure first. */
function countClass(posts: CalendarPost[]): string {
  if (posts.some((post) => post.status === 'error')) return styles.countError!;
  if (posts.some((post) => post.status === 'pending' && post.waitKind)) return styles.countHeld!;
  if (posts.some((post) => post.status === 'pending')) return styles.countPending!;
  return styles.countDone!;
}

interface CountCellProps {
  day: Day;
  weekday: string;
  posts: CalendarPost[];
  today: boolean;
  outside: boolean;
  picked: boolean;
  onPick: () => void;
}

/**
 * A phone's month cell: the date, and a count of the day's posts that picks the day for the list
 * under the month.
 */
function CountCell({ day, weekday, posts, today, outside, picked, onPick }: CountCellProps) {
  const [, , date] = day.split('-');
  return (
    <li className={`${styles.day} ${today ? styles.today : ''} ${outside ? styles.outside : ''}`} data-day={day}>
      {posts.length > 0 ? (
        <button type="button" className={styles.dayPick} aria-pressed={picked} onClick={onPick}>
          {/* The name is said in full; the cell shows it in short. */}
          <span className={styles.spoken}>{t.calendar.dayPosts(dayName(day, weekday), posts.length)}</span>
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
}

interface DayCellProps {
  day: Day;
  weekday: string;
  view: CalendarView;
  posts: CalendarPost[];
  today: boolean;
  outside: boolean;
  onMore: () => void;
}

function DayCell({ day, weekday, view, posts, today, outside, onMore }: DayCellProps) {
  const [, , date] = day.split('-');
  const shown = view === 'month' ? posts.slice(0, postsPerMonthCell) : posts;
  return (
    <li className={`${styles.day} ${today ? styles.today : ''} ${outside ? styles.outside : ''}`} data-day={day}>
      <time dateTime={day} className={styles.dayHead}>
        {view === 'week' ? dayName(day, weekday) : Number(date)}
      </time>
      {shown.length > 0 && (
        <ul className={styles.posts}>
          {shown.map((post) => (
            <li key={post.id}>
              <PostLink post={post} />
            </li>
          ))}
        </ul>
      )}
      {posts.length > shown.length && (
        <button type="button" className={styles.more} onClick={onMore}>
          {t.calendar.more(posts.length - shown.length)}
        </button>
      )}
    </li>
  );
}

/** /calendar: scheduled and published posts by Kyiv day, a week or a month at a time, per profile. */
export function CalendarScreen() {
  const profileFieldId = useId();
  const actor = useScreenActor(calendarMachine, { id: 'calendar' });
  const { view, anchor, today, accountId, range, error } = useSelector(actor, (snapshot) => snapshot.context);
  const loading = useSelector(actor, (snapshot) => snapshot.matches('loading'));
  const counted = useMediaQuery(phoneWidth) && view === 'month';
  const [picked, setPicked] = useState<Day | null>(null);
  const dayListId = useId();

  const days = daysOf(view, anchor);
  const postsOf = new Map<Day, CalendarPost[]>();
  for (const post of range?.posts ?? []) {
    const day = kyivDay(post.scheduledAt);
    postsOf.set(day, [...(postsOf.get(day) ?? []), post]);
  }
  // The day whose posts a phone lists under the month: the one picked, else the next with posts.
  const postDays = days.filter((day) => postsOf.has(day));
  const listedDay =
    (picked !== null && postDays.includes(picked) ? picked : null) ?? postDays.find((day) => day >= today) ?? postDays.at(-1) ?? null;
  const profiles = range?.accounts ?? [];
  const profileOptions =
    accountId === null || profiles.some((profile) => profile.id === accountId)
      ? profiles
      : [...profiles, { id: accountId, title: t.accounts.optionTitle(accountId, '') }];

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
          <h2 className={styles.period} aria-live="polite">
            {periodTitle(view, anchor)}
          </h2>
        </div>
        <div className={styles.profile}>
          <label htmlFor={profileFieldId}>{t.calendar.profile}</label>
          <select
            id={profileFieldId}
            value={accountId ?? ''}
            onChange={(event) => actor.send({ type: 'account.pick', accountId: event.target.value ? Number(event.target.value) : null })}
          >
            <option value="">{t.calendar.allProfiles}</option>
            {profileOptions.map((profile) => (
              <option key={profile.id} value={profile.id}>
                {profile.title}
              </option>
            ))}
          </select>
        </div>
      </div>

      {error ? <LoadError error={error} /> : null}
      {range && range.posts.length === 0 && <p className={styles.note}>{t.calendar.empty}</p>}
      {range?.truncated && <p className={styles.note}>{t.calendar.truncated(range.posts.length)}</p>}

      <div className={`${styles.calendar} ${styles[view]}`} aria-busy={loading}>
        <div className={styles.weekdays} aria-hidden>
          {t.calendar.weekdays.map((weekday) => (
            <span key={weekday}>{weekday}</span>
          ))}
        </div>
        <ol className={styles.days}>
          {days.map((day, index) =>
            counted ? (
              <CountCell
                key={day}
                day={day}
                weekday={t.calendar.weekdays[index % 7]!}
                posts={postsOf.get(day) ?? []}
                today={day === today}
                outside={!inMonth(day, anchor)}
                picked={day === listedDay}
                onPick={() => setPicked(day)}
              />
            ) : (
              <DayCell
                key={day}
                day={day}
                weekday={t.calendar.weekdays[index % 7]!}
                view={view}
                posts={postsOf.get(day) ?? []}
                today={day === today}
                outside={view === 'month' && !inMonth(day, anchor)}
                onMore={() => actor.send({ type: 'day.open', day })}
              />
            ),
          )}
        </ol>
      </div>
      {counted && listedDay !== null && (
        <section className={styles.dayList} aria-labelledby={dayListId}>
          <h3 id={dayListId} className={styles.dayListTitle}>
            {t.calendar.dayList(dayName(listedDay, t.calendar.weekdays[days.indexOf(listedDay) % 7]!))}
          </h3>
          <ul className={styles.posts}>
            {postsOf.get(listedDay)!.map((post) => (
              <li key={post.id}>
                <PostLink post={post} />
              </li>
            ))}
          </ul>
        </section>
      )}
    </Page>
  );
}
