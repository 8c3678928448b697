import { useLocation } from 'wouter';
import toast from 'react-hot-toast';
import { api } from '../../lib/api';
import type { AccountDetail } from '../../lib/contract';
import { t } from '../../lib/i18n';
import type { AccountForm } from '../../lib/schemas';
import { toastErrors } from '../../lib/toasts';
import { Page } from '../../components/page';
import { AccountFormCard, emptyAccountForm } from './account-form';
import styles from './account-screens.module.css';

export function AccountCreateScreen() {
  const [, navigate] = useLocation();
  const create = async (values: AccountForm) => {
    try {
      const account = await api<AccountDetail>('POST', '/accounts', values);
      toast.success(t.accounts.created);
      navigate(`/accounts/${account.id}`);
    } catch (error) {
      toastErrors(error);
    }
  };
  return (
    <Page title={t.accounts.createTitle}>
      <div className={styles.narrow}>
        <AccountFormCard initial={emptyAccountForm} submitLabel={t.app.create} onSubmit={create} />
      </div>
    </Page>
  );
}
