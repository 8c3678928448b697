import type { VideoSummary } from '../lib/contract';
import * as t from '../lib/i18n';
import { platforms, type PlatformFieldName } from '../lib/platforms';
import styles from './video-links.module.css';

/** Where a video can be watched on each platform, each link only when that platform gave one. */
export function VideoLinks({ video }: { video: Partial<Pick<VideoSummary, PlatformFieldName<'url'>>> }) {
  const links = platforms.flatMap((platform) => {
    const url = video[platform.fields.url];
    return url ? [{ label: t.platform.names[platform.id], url }] : [];
  });
  if (links.length === 0) return <>—</>;
  return (
    <span className={styles.links}>
      {links.map((link) => (
        <a key={link.label} href={link.url} target="_blank" rel="noreferrer">
          {link.label}
        </a>
      ))}
    </span>
  );
}
