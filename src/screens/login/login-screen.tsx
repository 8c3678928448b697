import { useForm } from 'react-hook-form';
import { superstructResolver } from '@hookform/resolvers/superstruct';
import { useSelector } from '@xstate/react';
import { t } from '../../lib/i18n';
import { loginSchema, type LoginForm } from '../../lib/schemas';
import { useAuthActor } from '../../components/auth-context';
import { Button } from '../../components/button';
import { TextField } from '../../components/text-field';
import { useFocusFirstError } from '../../components/use-focus-first-error';
import styles from './login-screen.module.css';

export function LoginScreen() {
  const auth = useAuthActor();
  const submitting = useSelector(auth, (snapshot) => snapshot.matches({ signedOut: 'submitting' }));
  // The page asked for stays in the address bar, so signing in again lands back on it.
  const sessionEnded = useSelector(auth, (snapshot) => snapshot.matches({ signedOut: 'sessionEnded' }));
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<LoginForm>({
    resolver: superstructResolver(loginSchema),
    defaultValues: { login: '', password: '' },
    shouldFocusError: false,
  });
  const onSubmit = useFocusFirstError(handleSubmit((values) => auth.send({ type: 'login.submit', ...values })));

  return (
    <main className={styles.screen}>
      <form className={styles.card} noValidate onSubmit={onSubmit}>
        <div className={styles.logo}>{t.app.logo}</div>
        <h1 className={styles.title}>{t.login.title}</h1>
        {sessionEnded && (
          <p role="alert" className={styles.notice}>
            {t.login.sessionEnded}
          </p>
        )}
        <TextField label={t.login.login} autoComplete="username" error={errors.login?.message} {...register('login')} />
        <TextField
          label={t.login.password}
          type="password"
          autoComplete="current-password"
          error={errors.password?.message}
          {...register('password')}
        />
        <Button type="submit" className={styles.submit} disabled={submitting}>
          {t.login.submit}
        </Button>
      </form>
    </main>
  );
}
