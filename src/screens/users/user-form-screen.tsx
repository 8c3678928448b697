import { useMemo } from 'react';
import { Link, useParams } from 'wouter';
import { useForm } from 'react-hook-form';
import { superstructResolver } from '@hookform/resolvers/superstruct';
import type { AccountSummary, ManagedUser, UserDetail, VideoSummary } from '../../lib/contract';
import * as t from '../../lib/i18n';
import { ownUserSchema, userSchema, type OwnUserForm, type UserForm } from '../../lib/schemas';
import { AccountTable } from '../../components/account-table';
import { useSessionUser } from '../../components/auth-context';
import { RecordFormFrame, type RecordFormProps } from '../../components/record-form';
import { LoadError, RecordGate } from '../../components/load-error';
import { NewPasswordFields } from '../../components/new-password-fields';
import { Pagination } from '../../components/pagination';
import { Page } from '../../components/page';
import { TextField } from '../../components/text-field';
import { usePagedPart, useRecordForm } from '../../components/use-resource';
import { VideoTable } from '../../components/video-table';
import styles from './user-screens.module.css';

function UserFormCard({ record: user, saving, onSubmit }: RecordFormProps<ManagedUser, UserForm>) {
  // The user read again after a save empties the password fields.
  const values = useMemo(() => ({ login: user?.login ?? '', password: '', password_confirmation: '' }), [user]);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<UserForm>({ resolver: superstructResolver(userSchema), values, shouldFocusError: false });

  return (
    <RecordFormFrame isNew={!user} saving={saving} onSubmit={handleSubmit(onSubmit)} className={styles.form}>
      <TextField label={t.users.login} autoComplete="off" error={errors.login?.message} {...register('login')} />
      <NewPasswordFields password={register('password')} confirmation={register('password_confirmation')} errors={errors} />
    </RecordFormFrame>
  );
}

/**
 * The admin's own record: the login only. Their password changes in Settings with the current one,
 * as the server refuses it here (server/routes/users.ts).
 */
function OwnUserFormCard({ record: user, saving, onSubmit }: RecordFormProps<ManagedUser, OwnUserForm>) {
  const values = useMemo(() => ({ login: user?.login ?? '' }), [user]);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<OwnUserForm>({ resolver: superstructResolver(ownUserSchema), values, shouldFocusError: false });

  return (
    <RecordFormFrame isNew={false} saving={saving} onSubmit={handleSubmit(onSubmit)} className={styles.form}>
      <TextField label={t.users.login} autoComplete="off" error={errors.login?.message} {...register('login')} />
      <p className={styles.hint}>{t.users.ownPasswordInSettings}</p>
      <p className={styles.hint}>
        <Link href="/setting">{t.users.ownPasswordLink}</Link>
      </p>
    </RecordFormFrame>
  );
}

function UserAccounts({ detail }: { detail: UserDetail }) {
  const accounts = usePagedPart<AccountSummary>(
    'user-accounts',
    detail.accounts,
    (page) => `/users/${detail.user.id}/account?page=${page}`,
  );
  return (
    <section className={styles.section}>
      <h2 className={styles.sectionTitle}>{t.users.accountsPanel}</h2>
      {accounts.error ? (
        <LoadError error={accounts.error} />
      ) : (
        <>
          <AccountTable rows={accounts.data?.data} loading={accounts.loading} />
          <Pagination page={accounts.page} totalPages={accounts.data?.totalPages ?? 0} onPageChange={accounts.setPage} />
        </>
      )}
    </section>
  );
}

function UserVideos({ detail }: { detail: UserDetail }) {
  const videos = usePagedPart<VideoSummary>('user-videos', detail.video, (page) => `/users/${detail.user.id}/video?page=${page}`);
  return (
    <section className={styles.section}>
      <h2 className={styles.sectionTitle}>{t.users.videosPanel}</h2>
      {videos.error ? (
        <LoadError error={videos.error} />
      ) : (
        <VideoTable data={videos.data} loading={videos.loading} onPageChange={videos.setPage} showAccount />
      )}
    </section>
  );
}

const userHref = (saved: { id: number }) => `/users/${saved.id}`;

export function UserFormScreen() {
  const { id } = useParams<{ id?: string }>();
  const form = useRecordForm<UserDetail>('user-form', '/users', id, { created: t.users.created, updated: t.users.updated }, userHref);
  const detail = form.data;
  const sessionUser = useSessionUser();
  return (
    <RecordGate error={form.error} errorTitle={t.users.editTitle(`#${id}`)} waiting={Boolean(id) && !detail}>
      <Page title={detail ? t.users.editTitle(detail.user.login) : t.users.createTitle}>
        {detail && detail.user.id === sessionUser?.id ? (
          <OwnUserFormCard key={detail.user.id} record={detail.user} saving={form.saving} onSubmit={form.submit} />
        ) : (
          <UserFormCard key={detail?.user.id ?? 'new'} record={detail?.user} saving={form.saving} onSubmit={form.submit} />
        )}
        {detail && (
          <>
            <UserAccounts key={`accounts-${detail.user.id}`} detail={detail} />
            <UserVideos key={`videos-${detail.user.id}`} detail={detail} />
          </>
        )}
      </Page>
    </RecordGate>
  );
}
