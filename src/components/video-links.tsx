import { t } from '../lib/i18n';
import styles from './video-links.module.css';

interface VideoLinksProps {
  urlYouTube: string | null;
  urlInstagram: string | null;
  urlTiktok?: string | null;
}

/** Where a video can be watched on each platform, each link only when that platform gave one. */
export function VideoLinks({ urlYouTube, urlInstagram, urlTiktok }: VideoLinksProps) {
  const links = [
    { label: t.videoTable.youtube, url: urlYouTube },
    { label: t.videoTable.instagram, url: urlInstagram },
    { label: t.videoTable.tiktok, url: urlTiktok ?? null },
  ].filter((link) => link.url);
  if (links.length === 0) return <>—</>;
  return (
    <span className={styles.links}>
      {links.map((link) => (
        <a key={link.label} href={link.url!} target="_blank" rel="noreferrer">
          {link.label}
        </a>
      ))}
    </span>
  );
}
