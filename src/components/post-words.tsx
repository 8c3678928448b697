import type { VideoPost } from '../lib/contract';
import * as t from '../lib/i18n';
import { hashtags } from '../lib/posting-rules/caption';
import { wordsOf, type PostText } from '../lib/post-texts';
import styles from './post-words.module.css';

interface PostWordsProps {
  posts: Pick<VideoPost, 'platform' | 'words'>[];
  /** The set's own words, which a post without its own says. */
  set: PostText;
}

/**
 * Each post's final words (issue 43.2), folded under one line: shown only where a post says other
 * words than its set, whose own the page shows above.
 */
export function PostWords({ posts, set }: PostWordsProps) {
  if (!posts.some((post) => post.words)) return null;
  return (
    <details className={styles.words}>
      <summary>{t.texts.postWords}</summary>
      <dl>
        {posts.map((post) => {
          const words = wordsOf(post.words ?? { title: null, description: null, tags: null }, set);
          return (
            <div key={post.platform} className={styles.post}>
              <dt>{t.texts.postWordsOf(t.platform.names[post.platform])}</dt>
              <dd>
                <span className={styles.title}>{words.title}</span>
                {words.description && <span className={styles.description}>{words.description}</span>}
                {words.tags.length > 0 && <span className={styles.tags}>{hashtags(words.tags)}</span>}
              </dd>
            </div>
          );
        })}
      </dl>
    </details>
  );
}
