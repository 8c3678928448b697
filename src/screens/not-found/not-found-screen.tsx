import { Link } from 'wouter';
import * as t from '../../lib/i18n';
import { buttonClass } from '../../components/button';
import styles from './not-found-screen.module.css';

export function NotFoundScreen() {
  return (
    <section className={styles.screen}>
      <h1 className={styles.code}>{t.app.notFoundTitle}</h1>
      <p className={styles.text}>{t.app.notFoundText}</p>
      <Link href="/" className={buttonClass('secondary')}>
        {t.app.toHome}
      </Link>
    </section>
  );
}
