import { Eye, MessageCircle, ThumbsUp } from 'lucide-react';
import type { VideoSummary } from '../lib/contract';
import * as t from '../lib/i18n';
import { platforms, type PlatformFieldName } from '../lib/platforms';
import styles from './video-stats.module.css';

type Counts = Pick<VideoSummary, PlatformFieldName<'views' | 'likes' | 'comments' | 'url'>>;

function PlatformCounts({ platform, views, likes, comments }: { platform: string; views: number; likes: number; comments: number }) {
  const stats = [
    { name: t.videoTable.views, value: views, Icon: Eye },
    { name: t.videoTable.likes, value: likes, Icon: ThumbsUp },
    { name: t.videoTable.comments, value: comments, Icon: MessageCircle },
  ];
  return (
    <span className={styles.row}>
      <span className={styles.platform}>{platform}</span>
      {stats.map(({ name, value, Icon }) => (
        <span key={name} className={styles.stat} aria-label={t.videoTable.statLabel(name, platform, value)} title={name}>
          <Icon size={13} aria-hidden />
          {value}
        </span>
      ))}
    </span>
  );
}

/**
 * Views, likes and comments of a published video, a row per platform it went out on (a post that
 * went out left its link). Callers show it only for success.
 */
export function VideoStats({ video }: { video: Counts }) {
  return (
    <span className={styles.stats}>
      {platforms.map(
        ({ id, fields }) =>
          video[fields.url] && (
            <PlatformCounts
              key={id}
              platform={t.platform.names[id]}
              views={video[fields.views]}
              likes={video[fields.likes]}
              comments={video[fields.comments]}
            />
          ),
      )}
    </span>
  );
}
