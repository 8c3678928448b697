import * as t from '../../lib/i18n';
import { Page } from '../../components/page';
import { useRecordForm } from '../../components/use-resource';
import { emptyAccountForm } from '../../lib/schemas';
import { AccountFormCard } from './account-form';
import { accountHref, accountTexts } from './account-record';
import styles from './account-screens.module.css';

export function AccountCreateScreen() {
  const form = useRecordForm('account-create', '/accounts', undefined, accountTexts, accountHref);
  return (
    <Page title={t.accounts.createTitle}>
      <div className={styles.narrow}>
        <AccountFormCard initial={emptyAccountForm} submitLabel={t.app.create} saving={form.saving} onSubmit={form.submit} />
      </div>
    </Page>
  );
}
