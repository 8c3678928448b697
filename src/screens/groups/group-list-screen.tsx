import { Link, useSearch } from 'wouter';
import { Plus } from 'lucide-react';
import { api } from '../../lib/api';
import type { AccountGroup, Paged } from '../../lib/contract';
import { t } from '../../lib/i18n';
import { toastDeletion } from '../../lib/toasts';
import { pageFromSearch, useApi } from '../../lib/use-api';
import { buttonClass } from '../../components/button';
import { DataTable } from '../../components/data-table';
import { DeleteButton } from '../../components/delete-button';
import { LoadError } from '../../components/load-error';
import { Page } from '../../components/page';
import { Pagination } from '../../components/pagination';

export function GroupListScreen() {
  const page = pageFromSearch(useSearch());
  const { data, error, loading, reload } = useApi<Paged<AccountGroup>>(`/accounts-group?page=${page}`);

  const remove = (group: AccountGroup) => {
    toastDeletion(api('DELETE', `/accounts-group/${group.id}`), t.groups.deleted)
      .catch(() => undefined)
      .finally(reload);
  };

  return (
    <Page
      title={t.groups.listTitle}
      actions={
        <Link href="/accounts/group/create" className={buttonClass()}>
          <Plus size={16} aria-hidden /> {t.app.create}
        </Link>
      }
    >
      {error ? (
        <LoadError error={error} />
      ) : (
        <>
          <DataTable
            rows={data?.data}
            loading={loading}
            rowKey={(group) => group.id}
            columns={[
              { header: t.groups.columnId, cell: (group) => group.id, width: '70px' },
              { header: t.groups.columnName, cell: (group) => <Link href={`/accounts/group/${group.id}`}>{group.name}</Link> },
              {
                header: '',
                cell: (group) => <DeleteButton label={t.groups.deleteLabel(group.name)} onDelete={() => remove(group)} />,
                width: '56px',
                align: 'right',
              },
            ]}
          />
          <Pagination page={page} totalPages={data?.totalPages ?? 0} />
        </>
      )}
    </Page>
  );
}
