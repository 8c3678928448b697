import { useSearch } from 'wouter';
import type { AccountSummary, Paged } from '../../lib/contract';
import { t } from '../../lib/i18n';
import { deleteWithToasts } from '../../lib/toasts';
import { pageFromSearch, useApi } from '../../lib/use-api';
import { AccountTable } from '../../components/account-table';
import { useSessionUser } from '../../components/auth-context';
import { CreateLink } from '../../components/create-link';
import { Page } from '../../components/page';
import { PagedList } from '../../components/paged-list';
import { useYouTubeResult } from './use-youtube-result';

export function AccountListScreen() {
  const isAdmin = useSessionUser()?.role === 'admin';
  const page = pageFromSearch(useSearch());
  const { data, error, loading, reload } = useApi<Paged<AccountSummary>>(`/accounts?page=${page}`);
  useYouTubeResult();

  const remove = (account: AccountSummary) => {
    void deleteWithToasts(`/accounts/${account.id}`, t.accounts.deleted).then(reload);
  };

  return (
    <Page title={t.accounts.listTitle} actions={<CreateLink href="/accounts/create" />}>
      <PagedList error={error} page={page} totalPages={data?.totalPages}>
        <AccountTable rows={data?.data} loading={loading} showOwner={isAdmin} onDelete={remove} />
      </PagedList>
    </Page>
  );
}
