import { Link, useSearch } from 'wouter';
import { Plus } from 'lucide-react';
import { api } from '../../lib/api';
import type { AccountSummary, Paged } from '../../lib/contract';
import { t } from '../../lib/i18n';
import { toastDeletion } from '../../lib/toasts';
import { pageFromSearch, useApi } from '../../lib/use-api';
import { AccountTable } from '../../components/account-table';
import { useSessionUser } from '../../components/auth-context';
import { buttonClass } from '../../components/button';
import { LoadError } from '../../components/load-error';
import { Page } from '../../components/page';
import { Pagination } from '../../components/pagination';
import { useYouTubeResult } from './use-youtube-result';

export function AccountListScreen() {
  const isAdmin = useSessionUser()?.role === 'admin';
  const page = pageFromSearch(useSearch());
  const { data, error, loading, reload } = useApi<Paged<AccountSummary>>(`/accounts?page=${page}`);
  useYouTubeResult();

  const remove = (account: AccountSummary) => {
    toastDeletion(api('DELETE', `/accounts/${account.id}`), t.accounts.deleted)
      .catch(() => undefined)
      .finally(reload);
  };

  return (
    <Page
      title={t.accounts.listTitle}
      actions={
        <Link href="/accounts/create" className={buttonClass()}>
          <Plus size={16} aria-hidden /> {t.app.create}
        </Link>
      }
    >
      {error ? (
        <LoadError error={error} />
      ) : (
        <>
          <AccountTable rows={data?.data} loading={loading} showOwner={isAdmin} onDelete={remove} />
          <Pagination page={page} totalPages={data?.totalPages ?? 0} />
        </>
      )}
    </Page>
  );
}
