import type { PostCounts, PostState, VideoPost } from '../lib/contract';
import * as t from '../lib/i18n';
import { formatDate } from '../lib/kyiv-time';
import { splitError } from '../lib/platform-error';
import tones from './badge-tones.module.css';
import styles from './post-badges.module.css';

const tone: Record<PostState, string> = {
  scheduled: tones.info,
  uploading: tones.info,
  published: tones.success,
  held: tones.warning,
  failed: tones.danger,
  cancelled: tones.neutral,
};

/** When a post went out, or is (or was) planned to, labelled as which. */
function whenOf(post: VideoPost): string {
  const date = formatDate(post.date);
  if (!date) return '';
  return post.state === 'published' ? t.postBadges.publishedAt(date) : t.postBadges.plannedAt(date);
}

/** A video's posts, a badge per platform with its state in words and colour (issue 40.2). */
export function PostBadges({ posts }: { posts: VideoPost[] }) {
  if (posts.length === 0) return null;
  return (
    <ul className={styles.badges} aria-label={t.postBadges.list}>
      {posts.map((post) => {
        const when = whenOf(post);
        // A failure's words are on the screen under the status already: the hover repeats them, a screen reader does not.
        const why = post.state === 'failed' && post.error ? splitError(post.error).summary : '';
        return (
          <li
            key={post.platform}
            className={`${styles.badge} ${tone[post.state]}`}
            title={[why, when].filter(Boolean).join('; ') || undefined}
          >
            {t.postBadges.badge(t.platform.names[post.platform], t.postStates[post.state])}
            {when && <span className={styles.hidden}>{`; ${when}`}</span>}
          </li>
        );
      })}
    </ul>
  );
}

/** A set's posts by state when not all went out: 'Частково: вийшло 1 з 2, з помилкою — 1'. */
export function SetCounts({ posts }: { posts: PostCounts | undefined }) {
  const words = posts ? t.postBadges.setCounts(posts) : null;
  return words ? <span className={styles.counts}>{words}</span> : null;
}
