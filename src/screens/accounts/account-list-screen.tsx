import type { AccountSummary } from '../../lib/contract';
import * as t from '../../lib/i18n';
import { AccountTable } from '../../components/account-table';
import { useSessionUser } from '../../components/auth-context';
import { CreateLink } from '../../components/create-link';
import { ListFilters } from '../../components/list-filters';
import { Page } from '../../components/page';
import { PagedList } from '../../components/paged-list';
import { useListPage } from '../../components/use-resource';
import { useYouTubeResult } from './use-youtube-result';

export function AccountListScreen() {
  const isAdmin = useSessionUser()?.role === 'admin';
  const { page, data, error, loading, remove } = useListPage<AccountSummary>('account-list', '/accounts');
  useYouTubeResult();

  return (
    <Page title={t.accounts.listTitle} actions={<CreateLink href="/accounts/create" />}>
      <ListFilters searchPlaceholder={t.filters.searchProfiles} platforms health />
      <PagedList error={error} page={page} totalPages={data?.totalPages}>
        <AccountTable
          rows={data?.data}
          loading={loading}
          showOwner={isAdmin}
          emptyHint={t.screens.empty.profiles}
          onDelete={(account) => remove(`/accounts/${account.id}`, t.accounts.deleted)}
        />
      </PagedList>
    </Page>
  );
}
