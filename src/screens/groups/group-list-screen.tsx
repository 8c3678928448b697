import { Link } from 'wouter';
import type { AccountGroup } from '../../lib/contract';
import { t } from '../../lib/i18n';
import { DataTable } from '../../components/data-table';
import { DeleteButton } from '../../components/delete-button';
import { CreateLink } from '../../components/create-link';
import { Page } from '../../components/page';
import { PagedList } from '../../components/paged-list';
import { useListPage } from '../../components/use-resource';

export function GroupListScreen() {
  const { page, data, error, loading, remove } = useListPage<AccountGroup>('group-list', '/accounts-group');

  return (
    <Page title={t.groups.listTitle} actions={<CreateLink href="/accounts/group/create" />}>
      <PagedList error={error} page={page} totalPages={data?.totalPages}>
        <DataTable
          rows={data?.data}
          loading={loading}
          rowKey={(group) => group.id}
          columns={[
            { header: t.groups.columnId, cell: (group) => group.id, width: '70px' },
            {
              header: t.groups.columnName,
              cell: (group) => <Link href={`/accounts/group/${group.id}`}>{group.name}</Link>,
            },
            {
              header: '',
              cell: (group) => <DeleteButton label={t.groups.deleteLabel(group.name)} onDelete={() => remove(`/accounts-group/${group.id}`, t.groups.deleted)} />,
              width: '56px',
              align: 'right',
            },
          ]}
        />
      </PagedList>
    </Page>
  );
}
