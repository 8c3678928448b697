import { Link } from 'wouter';
import { CircleCheck, Circle } from 'lucide-react';
import type { HomeSummary } from '../../lib/contract';
import * as t from '../../lib/i18n';
import { Button, buttonClass } from '../../components/button';
import { LoadError } from '../../components/load-error';
import { Card, Page } from '../../components/page';
import { Spinner } from '../../components/spinner';
import { useSessionUser } from '../../components/auth-context';
import { useResource } from '../../components/use-resource';
import styles from './home-screen.module.css';

/** Posts go out all day long: a glance a minute old is fresh enough. */
const homePollMs = 60_000;

type DayState = keyof HomeSummary['posts'];
const postStates: DayState[] = ['scheduled', 'published', 'held', 'failed'];

/** Where a state's posts are shown: the calendar marks each by its state; a failed one is published again from its set. */
const postsHref: Record<DayState, string> = {
  scheduled: '/calendar',
  published: '/calendar',
  held: '/calendar',
  failed: '/video/list?status=error',
};

type Step = keyof HomeSummary['steps'];
const steps: Step[] = ['profile', 'connect', 'backgrounds', 'video'];
const stepHref: Record<Step, string> = {
  profile: '/accounts/create',
  connect: '/accounts/list',
  backgrounds: '/photos/create',
  video: '/video/create',
};

/** `YYYY-MM-DD` as operators read a day. */
const dayText = (day: string) => day.split('-').reverse().join('.');

function FirstSteps({ done }: { done: HomeSummary['steps'] }) {
  const left = steps.filter((step) => !done[step]).length;
  return (
    <Card>
      <section aria-labelledby="home-steps">
        <div className={styles.sectionHead}>
          <h2 id="home-steps" className={styles.sectionTitle}>
            {t.home.stepsTitle}
          </h2>
          <p className={styles.sectionNote}>{t.home.stepsLeft(left)}</p>
        </div>
        <ol className={styles.steps}>
          {steps.map((step) => (
            <li key={step} className={done[step] ? styles.stepDone : styles.step}>
              {done[step] ? (
                <CircleCheck className={styles.stepMark} size={20} aria-label={t.home.stepDone} role="img" />
              ) : (
                <Circle className={styles.stepMark} size={20} aria-label={t.home.stepToDo} role="img" />
              )}
              <div>
                <h3 className={styles.stepTitle}>{t.home.steps[step].title}</h3>
                <p className={styles.stepText}>{t.home.steps[step].text}</p>
              </div>
              {!done[step] && (
                <Link href={stepHref[step]} className={`${buttonClass('secondary')} ${styles.stepLink}`}>
                  {t.home.steps[step].link}
                </Link>
              )}
            </li>
          ))}
        </ol>
      </section>
    </Card>
  );
}

/** `hasRequests`: the operator has made a video request, so a quiet day can point at one ready to publish. */
function TodayPosts({ posts, hasRequests }: { posts: HomeSummary['posts']; hasRequests: boolean }) {
  const total = postStates.reduce((sum, state) => sum + posts[state], 0);
  return (
    <Card>
      <section aria-labelledby="home-posts">
        <div className={styles.sectionHead}>
          <h2 id="home-posts" className={styles.sectionTitle}>
            {t.home.postsTitle}
          </h2>
          {total > 0 && <p className={styles.sectionNote}>{t.home.postsTotal(total)}</p>}
        </div>
        {total === 0 ? (
          <div className={styles.nothing}>
            <p>{t.home.noPosts}</p>
            {hasRequests && (
              <Link href="/video/request-create" className={buttonClass('secondary')}>
                {t.home.publishReady}
              </Link>
            )}
          </div>
        ) : (
          <ul className={styles.figures}>
            {postStates.map((state) => (
              <li key={state}>
                <Link href={postsHref[state]} className={`${styles.figure} ${styles[state]}`}>
                  {/* The spaces keep the link's spoken name apart: '3 Заплановано вийдуть у свій час'. */}
                  <span className={styles.count}>{posts[state]}</span> <span className={styles.figureLabel}>{t.postStates[state]}</span>{' '}
                  <span className={styles.figureHint}>{t.home.stateHints[state]}</span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>
    </Card>
  );
}

function Attention({ attention }: { attention: HomeSummary['attention'] }) {
  const isAdmin = useSessionUser()?.role === 'admin';
  const more = attention.total - attention.profiles.length;
  return (
    <Card>
      <section aria-labelledby="home-attention">
        <div className={styles.sectionHead}>
          <h2 id="home-attention" className={styles.sectionTitle}>
            {t.home.attentionTitle}
          </h2>
          {attention.total > 0 && <p className={styles.sectionNote}>{t.home.attentionCount(attention.total)}</p>}
        </div>
        {attention.total === 0 ? (
          <p className={styles.calm}>{t.home.attentionNone}</p>
        ) : (
          <ul className={styles.profiles}>
            {attention.profiles.map((profile) => (
              <li key={profile.id} className={styles.profile}>
                <Link href={`/accounts/${profile.id}`} className={styles.profileLink}>
                  {profile.title}
                </Link>
                <span className={styles.failure}>
                  {t.home.accessFailed(profile.failedPlatforms.map((platform) => t.platform.names[platform]).join(', '))}
                </span>
                {isAdmin && <span className={styles.owner}>{t.home.owner(profile.user.login)}</span>}
              </li>
            ))}
          </ul>
        )}
        {more > 0 && (
          <Link href="/accounts/list" className={`${buttonClass('secondary')} ${styles.more}`}>
            {t.home.attentionMore(more)}
          </Link>
        )}
      </section>
    </Card>
  );
}

/** `/`: the day at a glance, and for a new account what to do first. */
export function HomeScreen() {
  const { data, error, loading, reload } = useResource<HomeSummary>('home', '/home', { pollMs: homePollMs });
  const stepsLeft = data ? steps.some((step) => !data.steps[step]) : false;

  let content;
  if (error && !loading) {
    content = (
      <div className={styles.error}>
        <LoadError error={error} />
        <Button variant="secondary" onClick={reload}>
          {t.home.retry}
        </Button>
      </div>
    );
  } else if (!data) {
    content = <Spinner />;
  } else {
    content = (
      <div className={styles.sections}>
        {stepsLeft && <FirstSteps done={data.steps} />}
        <TodayPosts posts={data.posts} hasRequests={data.steps.video} />
        {data.steps.profile && <Attention attention={data.attention} />}
      </div>
    );
  }
  return (
    <Page title={t.home.title} subtitle={data ? t.home.today(dayText(data.day)) : undefined}>
      {content}
    </Page>
  );
}
