import type { ReactNode } from 'react';
import { errorMessages } from '../lib/api';
import { Page } from './page';
import { Spinner } from './spinner';
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

interface RecordGateProps {
  /** The load's error, shown on a page titled `errorTitle`. */
  error: unknown;
  errorTitle: string;
  /** A record is asked for and has not arrived yet. */
  waiting: boolean;
  children: ReactNode;
}

/** A record screen until its record is there: the load error, or a spinner. */
export function RecordGate({ error, errorTitle, waiting, children }: RecordGateProps) {
  if (error) {
    return (
      <Page title={errorTitle}>
        <LoadError error={error} />
      </Page>
    );
  }
  if (waiting) return <Spinner />;
  return children;
}
