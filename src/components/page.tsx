import type { ReactNode } from 'react';
import styles from './page.module.css';

interface PageProps {
  title: ReactNode;
  /** Buttons or links on the right of the title. */
  actions?: ReactNode;
  children: ReactNode;
}

export function Page({ title, actions, children }: PageProps) {
  return (
    <section className={styles.page}>
      <header className={styles.header}>
        <h1>{title}</h1>
        {actions && <div className={styles.actions}>{actions}</div>}
      </header>
      {children}
    </section>
  );
}

export function Card({ children }: { children: ReactNode }) {
  return <div className={styles.card}>{children}</div>;
}
