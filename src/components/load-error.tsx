import { errorMessages } from '../lib/api';
import styles from './load-error.module.css';

/** What a screen shows in place of data it could not load: the server's own words. */
export function LoadError({ error }: { error: unknown }) {
  return (
    <div className={styles.error} role="alert">
      {errorMessages(error).map((message) => (
        <p key={message}>{message}</p>
      ))}
    </div>
  );
}
