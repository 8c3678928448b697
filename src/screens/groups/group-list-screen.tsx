import { Link } from 'wouter';
import type { AccountGroup } from '../../lib/contract';
import * as t from '../../lib/i18n';
import { DeleteButton } from '../../components/delete-button';
import { CreateLink } from '../../components/create-link';
import { Page } from '../../components/page';
import { PagedTable } from '../../components/paged-list';
import { useListPage } from '../../components/use-resource';

export function GroupListScreen() {
  const list = useListPage<AccountGroup>('group-list', '/accounts-group');

  return (
    <Page title={t.groups.listTitle} actions={<CreateLink href="/accounts/group/create" />}>
      <PagedTable
        list={list}
        emptyHint={t.screens.empty.groups}
        columns={[
          { header: t.groups.columnId, cell: (group) => group.id, width: '70px' },
          {
            header: t.groups.columnName,
            cell: (group) => <Link href={`/accounts/group/${group.id}`}>{group.name}</Link>,
          },
          {
            header: '',
            cell: (group) => (
              <DeleteButton
                label={t.groups.deleteLabel(group.name)}
                consequence={t.confirm.groupConsequence}
                onDelete={() => list.remove(`/accounts-group/${group.id}`, t.groups.deleted)}
              />
            ),
            width: '56px',
            align: 'right',
          },
        ]}
      />
    </Page>
  );
}
