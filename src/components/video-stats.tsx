import { Eye, MessageCircle, ThumbsUp } from 'lucide-react';
import type { VideoSummary } from '../lib/contract';
import { t } from '../lib/i18n';
import styles from './video-stats.module.css';

type Counts = Pick<
  VideoSummary,
  | 'views'
  | 'likes'
  | 'comments'
  | 'viewsTikTok'
  | 'likesTikTok'
  | 'commentsTikTok'
  | 'viewsInstagram'
  | 'likesInstagram'
  | 'commentsInstagram'
  | 'urlYouTube'
  | 'urlTiktok'
  | 'urlInstagram'
>;

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
      {video.urlYouTube && (
        <PlatformCounts platform={t.videoTable.youtube} views={video.views} likes={video.likes} comments={video.comments} />
      )}
      {video.urlTiktok && (
        <PlatformCounts
          platform={t.videoTable.tiktok}
          views={video.viewsTikTok}
          likes={video.likesTikTok}
          comments={video.commentsTikTok}
        />
      )}
      {video.urlInstagram && (
        <PlatformCounts
          platform={t.videoTable.instagram}
          views={video.viewsInstagram}
          likes={video.likesInstagram}
          comments={video.commentsInstagram}
        />
      )}
    </span>
  );
}
