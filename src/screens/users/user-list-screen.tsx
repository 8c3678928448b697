import type { ManagedUser } from '../../lib/contract';
import * as t from '../../lib/i18n';
import { useSessionUser } from '../../components/auth-context';
import { DeleteButton } from '../../components/delete-button';
import { CreateLink } from '../../components/create-link';
import { Page } from '../../components/page';
import { PagedTable } from '../../components/paged-list';
import { useListPage } from '../../components/use-resource';
import styles from './user-screens.module.css';

export function UserListScreen() {
  const me = useSessionUser();
  const list = useListPage<ManagedUser>('user-list', '/users');

  return (
    <Page title={t.users.listTitle} actions={<CreateLink href="/users/create" />}>
      <PagedTable
        list={list}
        emptyHint={t.screens.empty.users}
        rowHref={(user) => `/users/${user.id}`}
        columns={[
          { header: t.users.columnId, cell: (user) => user.id, width: '70px' },
          {
            header: t.users.columnLogin,
            cell: (user) => (
              <span className={styles.login}>
                {user.login}
                {user.role === 'admin' && <span className={styles.admin}>{t.users.adminBadge}</span>}
              </span>
            ),
          },
          { header: t.users.columnVideos, cell: (user) => user.videosCount, width: '110px', align: 'right' },
          { header: t.users.columnAccounts, cell: (user) => user.accountsCount, width: '110px', align: 'right' },
          {
            header: '',
            cell: (user) =>
              user.id !== me?.id && (
                <DeleteButton
                  label={t.users.deleteLabel(user.login)}
                  consequence={t.confirm.userConsequence}
                  onDelete={() => list.remove(`/users/${user.id}`, t.users.deleted)}
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
