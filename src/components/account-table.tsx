import { CircleAlert, CircleCheck, CircleDashed } from 'lucide-react';
import type { AccountSummary } from '../lib/contract';
import * as t from '../lib/i18n';
import { platforms } from '../lib/platforms';
import { profileName } from '../lib/profile-name';
import { DataTable, type Column } from './data-table';
import { DeleteButton } from './delete-button';
import { ProfileHealth } from './profile-health';
import type { EmptyHint } from './empty-state';
import { StatusBadge } from './status-badge';
import styles from './account-table.module.css';

/** A platform of a profile at a glance: off, on and connected, or on and waiting for its connection. */
function PlatformState({ active, connected, failed, name }: { active: boolean; connected: boolean; failed: boolean; name?: string }) {
  if (!active) return <span className={styles.off}>{t.accounts.platformOff}</span>;
  // The profile's status says 'Помилка' for the same failure: the badge must not say connected.
  if (failed) {
    return (
      <span className={styles.failed}>
        <CircleAlert size={14} aria-hidden /> {t.postTruth.accessFailed}
      </span>
    );
  }
  if (connected) {
    return (
      <>
        <span className={styles.connected}>
          <CircleCheck size={14} aria-hidden /> {t.accounts.platformConnected}
        </span>
        {name && (
          <span className={styles.connectedAs} title={t.accounts.connectedAs(name)}>
            {t.accounts.connectedAs(name)}
          </span>
        )}
      </>
    );
  }
  return (
    <span className={styles.waiting}>
      <CircleDashed size={14} aria-hidden /> {t.accounts.platformWaiting}
    </span>
  );
}

interface AccountTableProps {
  rows: AccountSummary[] | undefined;
  loading: boolean;
  /** The owner's login, for admins. */
  showOwner?: boolean;
  onDelete?: (account: AccountSummary) => void;
  emptyHint?: EmptyHint;
}

/** Profiles as rows linking to their page: ID, proxy, comment, owner, the three platforms, the status and the health. */
export function AccountTable({ rows, loading, showOwner = false, onDelete, emptyHint }: AccountTableProps) {
  const columns: Column<AccountSummary>[] = [
    { header: t.accounts.columnId, cell: (account) => account.id, width: '70px' },
    { header: t.accounts.columnProxy, cell: (account) => <span className={styles.proxy}>{account.proxy}</span> },
    // Five profiles on one proxy differ only by what the operator wrote about them.
    {
      header: t.accounts.columnComment,
      cell: (account) => (
        <span className={styles.comment} title={account.comments}>
          {account.comments}
        </span>
      ),
    },
    ...(showOwner ? [{ header: t.accounts.columnUser, cell: (account: AccountSummary) => account.user.login }] : []),
    ...platforms.map((platform) => ({
      header: t.platform.names[platform.id],
      cell: (account: AccountSummary) => (
        <PlatformState
          active={account[platform.fields.switchedOn]}
          connected={account[platform.fields.ticked]}
          failed={account.failedPlatforms.includes(platform.id)}
          name={account.connectedAs[platform.id]}
        />
      ),
    })),
    { header: t.accounts.columnStatus, cell: (account) => <StatusBadge status={account.status} kind="account" wraps />, width: '118px' },
    {
      header: t.health.column,
      cell: (account) => (
        <div className={styles.health}>
          <ProfileHealth account={account} />
        </div>
      ),
      width: '176px',
    },
    ...(onDelete
      ? [
          {
            header: '',
            cell: (account: AccountSummary) => (
              <DeleteButton
                label={t.screens.deleteProfile(t.accounts.optionTitle(account.id, profileName(account)))}
                consequence={t.confirm.accountConsequence}
                onDelete={() => onDelete(account)}
              />
            ),
            width: '56px',
            align: 'right' as const,
          },
        ]
      : []),
  ];
  return (
    <DataTable
      columns={columns}
      rows={rows}
      rowKey={(account) => account.id}
      loading={loading}
      rowHref={(account) => `/accounts/${account.id}`}
      emptyHint={emptyHint}
      skipOffscreenCards
    />
  );
}
