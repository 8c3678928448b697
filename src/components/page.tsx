import type { ReactNode } from 'react';
import styles from './page.module.css';

interface PageProps {
  title: ReactNode;
  /** A secondary line under the title, such as the id a record is also known by. */
  subtitle?: ReactNode;
  /** Buttons or links on the right of the title. */
  actions?: ReactNode;
  children: ReactNode;
}

export function Page({ title, subtitle, actions, children }: PageProps) {
  return (
    <section className={styles.page}>
      <header className={styles.header}>
        <div className={styles.heading}>
          <h1>{title}</h1>
          {subtitle && <p className={styles.subtitle}>{subtitle}</p>}
        </div>
        {actions && <div className={styles.actions}>{actions}</div>}
      </header>
      {children}
    </section>
  );
}

export function Card({ children }: { children: ReactNode }) {
  return <div className={styles.card}>{children}</div>;
}
