import { t } from '../../lib/i18n';
import { useSessionUser } from '../../components/auth-context';
import { Card, Page } from '../../components/page';
import styles from './settings-screen.module.css';

export function SettingsScreen() {
  const user = useSessionUser();
  return (
    <Page title={t.settings.title}>
      <Card>
        <h2 className={styles.heading}>{t.settings.account}</h2>
        <dl className={styles.facts}>
          <dt>{t.settings.login}</dt>
          <dd>{user?.login}</dd>
          <dt>{t.settings.role}</dt>
          <dd>{user?.role === 'admin' ? t.settings.roleAdmin : t.settings.roleUser}</dd>
          <dt>{t.settings.timezone}</dt>
          <dd>{t.settings.timezoneValue}</dd>
        </dl>
      </Card>
    </Page>
  );
}
