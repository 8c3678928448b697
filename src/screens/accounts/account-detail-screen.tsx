import { useMemo } from 'react';
import { useParams } from 'wouter';
import type { AccountBody, AccountDetail, PlatformName, VideoSummary } from '../../lib/contract';
import * as t from '../../lib/i18n';
import { platforms } from '../../lib/platforms';
import { profileName } from '../../lib/profile-name';
import { useSessionUser } from '../../components/auth-context';
import { ErrorText } from '../../components/error-text';
import { LoadError, RecordGate } from '../../components/load-error';
import { Page } from '../../components/page';
import { PostingSlotsPanel, slotsSourceText } from '../../components/posting-slots-panel';
import { ProfileHealth } from '../../components/profile-health';
import { StatsPanel } from '../../components/stats-panel';
import { StatusBadge } from '../../components/status-badge';
import { usePagedPart, useRecordForm } from '../../components/use-resource';
import { VideoTable } from '../../components/video-table';
import { AccountFormCard, accountFormOf } from './account-form';
import { accountHref, accountTexts } from './account-record';
import { ChannelDescriptionPanel } from './channel-description-panel';
import { HealthCheckButton } from './health-check-button';
import { InstagramProfilePanel } from './instagram-profile-panel';
import { useYouTubeResult } from './use-youtube-result';
import styles from './account-screens.module.css';

function AccountVideos({ account }: { account: AccountDetail }) {
  const videos = usePagedPart<VideoSummary>('account-videos', account.video, (page) => `/accounts/${account.id}/video?page=${page}`);
  return (
    <section className={styles.videos}>
      <h2 className={styles.panelTitle}>{t.accountForm.videosPanel}</h2>
      {videos.error ? (
        <LoadError error={videos.error} />
      ) : (
        <VideoTable data={videos.data} loading={videos.loading} onPageChange={videos.setPage} />
      )}
    </section>
  );
}

export function AccountDetailScreen() {
  const { id } = useParams<{ id: string }>();
  const form = useRecordForm<AccountDetail>('account-detail', '/accounts', id, accountTexts, accountHref);
  useYouTubeResult(form.reload);
  return (
    <RecordGate error={form.error} errorTitle={t.accounts.editTitle(Number(id))} waiting={!form.data}>
      {form.data && (
        <AccountDetailView account={form.data} saving={form.saving} onSubmit={form.submit} reload={form.reload} show={form.show} />
      )}
    </RecordGate>
  );
}

interface AccountDetailViewProps {
  account: AccountDetail;
  saving: boolean;
  onSubmit: (body: AccountBody) => void;
  reload: () => void;
  /** Shows the profile as a write answered it (its health check), without reading it again. */
  show: (account: AccountDetail) => void;
}

function AccountDetailView({ account, saving, onSubmit, reload, show }: AccountDetailViewProps) {
  const isAdmin = useSessionUser()?.role === 'admin';
  const initial = useMemo(() => accountFormOf(account), [account]);
  return (
    <Page title={t.accounts.editTitle(account.id, profileName(account))} actions={<StatusBadge status={account.status} kind="account" />}>
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
        {Object.entries(account.connectedAs).map(([platform, name]) => (
          <div key={platform}>
            <dt>{t.platform.names[platform as PlatformName]}</dt>
            <dd>{t.accounts.connectedAs(name)}</dd>
          </div>
        ))}
        {platforms.some((platform) => account[platform.fields.switchedOn]) && (
          <div className={styles.healthFact}>
            <dt>{t.health.column}</dt>
            <dd className={styles.healthCheck}>
              <ProfileHealth account={account} figures />
              <HealthCheckButton accountId={account.id} onChecked={show} />
            </dd>
          </div>
        )}
        {account.status === 'error' && account.error && (
          <div className={styles.failure}>
            <dt>{t.accountForm.status}</dt>
            <dd>
              <ErrorText text={account.error} />
            </dd>
          </div>
        )}
      </dl>
      <div className={styles.layout}>
        <AccountFormCard
          initial={initial}
          accountId={account.id}
          saved={account.savedSecrets}
          connections={account.connections}
          onConnectSaved={reload}
          submitLabel={t.app.save}
          saving={saving}
          onSubmit={onSubmit}
        />
        <div className={styles.side}>
          {account.isActiveYouTube && <ChannelDescriptionPanel account={account} onSaved={reload} />}
          {account.isActiveInstagram && <InstagramProfilePanel account={account} onSaved={reload} />}
          <PostingSlotsPanel
            path={`/accounts/${account.id}/slots`}
            slots={account.slots}
            sourceText={slotsSourceText(account.slots, account.group?.name ?? null)}
            own={account.slots.source === 'profile'}
            clearLabel={t.postingSlots.clearProfile}
            onSaved={reload}
          />
        </div>
      </div>
      <AccountVideos account={account} />
      <StatsPanel path={`/stats/accounts/${account.id}`} byProfile={false} />
    </Page>
  );
}
