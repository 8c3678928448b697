import { useMemo } from 'react';
import { useParams } from 'wouter';
import toast from 'react-hot-toast';
import { api } from '../../lib/api';
import type { AccountDetail, VideoSummary } from '../../lib/contract';
import { t } from '../../lib/i18n';
import type { AccountForm } from '../../lib/schemas';
import { toastErrors } from '../../lib/toasts';
import { useApi } from '../../lib/use-api';
import { usePaged } from '../../lib/use-paged';
import { useSessionUser } from '../../components/auth-context';
import { LoadError } from '../../components/load-error';
import { Page } from '../../components/page';
import { Spinner } from '../../components/spinner';
import { StatusBadge } from '../../components/status-badge';
import { VideoTable } from '../../components/video-table';
import { AccountFormCard, accountFormOf } from './account-form';
import { ChannelDescriptionPanel } from './channel-description-panel';
import { InstagramProfilePanel } from './instagram-profile-panel';
import { useYouTubeResult } from './use-youtube-result';
import styles from './account-screens.module.css';

function AccountVideos({ account }: { account: AccountDetail }) {
  const videos = usePaged<VideoSummary>(account.video, (page) => `/accounts/${account.id}/video?page=${page}`);
  return (
    <section className={styles.videos}>
      <h2 className={styles.panelTitle}>{t.accountForm.videosPanel}</h2>
      {videos.error ? <LoadError error={videos.error} /> : <VideoTable data={videos.data} loading={videos.loading} onPageChange={videos.setPage} />}
    </section>
  );
}

export function AccountDetailScreen() {
  const id = Number(useParams<{ id: string }>().id);
  const isAdmin = useSessionUser()?.role === 'admin';
  const { data: account, error, reload } = useApi<AccountDetail>(`/accounts/${id}`);
  const initial = useMemo(() => account && accountFormOf(account), [account]);
  useYouTubeResult(reload);

  if (error) {
    return (
      <Page title={t.accounts.editTitle(id)}>
        <LoadError error={error} />
      </Page>
    );
  }
  if (!account || !initial) return <Spinner />;

  const save = async (values: AccountForm) => {
    try {
      await api('PATCH', `/accounts/${account.id}`, values);
      toast.success(t.accounts.updated);
      reload();
    } catch (caught) {
      toastErrors(caught);
    }
  };

  return (
    <Page title={t.accounts.editTitle(account.id)} actions={<StatusBadge status={account.status} kind="account" />}>
      <dl className={styles.facts}>
        {isAdmin && (
          <div>
            <dt>{t.accountForm.owner}</dt>
            <dd>{account.user.login}</dd>
          </div>
        )}
        {account.group && (
          <div>
            <dt>{t.accountForm.group}</dt>
            <dd>{account.group.name}</dd>
          </div>
        )}
        {account.status === 'error' && account.error && (
          <div className={styles.failure}>
            <dt>{t.accountForm.status}</dt>
            <dd>{account.error}</dd>
          </div>
        )}
      </dl>
      <div className={styles.layout}>
        <AccountFormCard initial={initial} accountId={account.id} saved={account.savedSecrets} submitLabel={t.app.save} onSubmit={save} />
        {(account.isActiveYouTube || account.isActiveInstagram) && (
          <div className={styles.side}>
            {account.isActiveYouTube && <ChannelDescriptionPanel account={account} onSaved={reload} />}
            {account.isActiveInstagram && <InstagramProfilePanel account={account} onSaved={reload} />}
          </div>
        )}
      </div>
      <AccountVideos account={account} />
    </Page>
  );
}
