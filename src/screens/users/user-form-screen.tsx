import { useLocation, useParams } from 'wouter';
import { useForm } from 'react-hook-form';
import { superstructResolver } from '@hookform/resolvers/superstruct';
import toast from 'react-hot-toast';
import { api } from '../../lib/api';
import type { AccountSummary, ManagedUser, UserDetail, VideoSummary } from '../../lib/contract';
import { t } from '../../lib/i18n';
import { userSchema, type UserForm } from '../../lib/schemas';
import { toastErrors } from '../../lib/toasts';
import { useApi } from '../../lib/use-api';
import { usePaged } from '../../lib/use-paged';
import { AccountTable } from '../../components/account-table';
import { Button } from '../../components/button';
import { LoadError } from '../../components/load-error';
import { Pagination } from '../../components/pagination';
import { Card, Page } from '../../components/page';
import { Spinner } from '../../components/spinner';
import { TextField } from '../../components/text-field';
import { VideoTable } from '../../components/video-table';
import styles from './user-screens.module.css';

function UserFormCard({ user, onSaved }: { user: ManagedUser | undefined; onSaved: (user: ManagedUser) => void }) {
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<UserForm>({
    resolver: superstructResolver(userSchema),
    defaultValues: { login: user?.login ?? '', password: '', password_confirmation: '' },
  });

  const save = async (form: UserForm) => {
    try {
      const saved = user ? await api<ManagedUser>('PATCH', `/users/${user.id}`, form) : await api<ManagedUser>('POST', '/users', form);
      toast.success(user ? t.users.updated : t.users.created);
      reset({ login: saved.login, password: '', password_confirmation: '' });
      onSaved(saved);
    } catch (error) {
      toastErrors(error);
    }
  };

  return (
    <form noValidate onSubmit={handleSubmit(save)} className={styles.form}>
      <Card>
        <TextField label={t.users.login} autoComplete="off" error={errors.login?.message} {...register('login')} />
        <TextField label={t.users.password} type="password" autoComplete="new-password" error={errors.password?.message} {...register('password')} />
        <TextField
          label={t.users.passwordConfirmation}
          type="password"
          autoComplete="new-password"
          error={errors.password_confirmation?.message}
          {...register('password_confirmation')}
        />
        <Button type="submit" disabled={isSubmitting}>
          {user ? t.app.save : t.app.create}
        </Button>
      </Card>
    </form>
  );
}

function UserAccounts({ detail }: { detail: UserDetail }) {
  const accounts = usePaged<AccountSummary>(detail.accounts, (page) => `/users/${detail.user.id}/account?page=${page}`);
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
  const videos = usePaged<VideoSummary>(detail.video, (page) => `/users/${detail.user.id}/video?page=${page}`);
  return (
    <section className={styles.section}>
      <h2 className={styles.sectionTitle}>{t.users.videosPanel}</h2>
      {videos.error ? <LoadError error={videos.error} /> : <VideoTable data={videos.data} loading={videos.loading} onPageChange={videos.setPage} showAccount />}
    </section>
  );
}

export function UserFormScreen() {
  const { id } = useParams<{ id?: string }>();
  const [, navigate] = useLocation();
  const { data: detail, error, reload } = useApi<UserDetail>(id ? `/users/${id}` : null);

  if (error) {
    return (
      <Page title={t.users.editTitle(`#${id}`)}>
        <LoadError error={error} />
      </Page>
    );
  }
  if (id && !detail) return <Spinner />;
  return (
    <Page title={detail ? t.users.editTitle(detail.user.login) : t.users.createTitle}>
      <UserFormCard key={detail?.user.id ?? 'new'} user={detail?.user} onSaved={(saved) => (detail ? reload() : navigate(`/users/${saved.id}`))} />
      {detail && (
        <>
          <UserAccounts detail={detail} />
          <UserVideos detail={detail} />
        </>
      )}
    </Page>
  );
}
