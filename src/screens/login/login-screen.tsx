import { useState, type ChangeEvent } from 'react';
import { useSelector } from '@xstate/react';
import * as t from '../../lib/i18n';
import { loginSchema, type LoginForm } from '../../lib/login-schema';
import { fieldMessages } from '../../lib/validation';
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
  // Two fields, checked on submit and again as they change after it, as react-hook-form would; the
  // login screen does without it, being what a browser loads before signing in (issue 40.10: 12 KB).
  const [values, setValues] = useState<LoginForm>({ login: '', password: '' });
  const [errors, setErrors] = useState<ReturnType<typeof fieldMessages> | null>(null);
  const change = (field: keyof LoginForm) => (event: ChangeEvent<HTMLInputElement>) => {
    const next = { ...values, [field]: event.target.value };
    setValues(next);
    if (errors) setErrors(fieldMessages(loginSchema, next));
  };
  const onSubmit = useFocusFirstError((event) => {
    event.preventDefault();
    const found = fieldMessages(loginSchema, values);
    setErrors(found);
    if (Object.keys(found).length === 0) auth.send({ type: 'login.submit', ...values });
  });

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
        <TextField
          label={t.login.login}
          name="login"
          autoComplete="username"
          value={values.login}
          onChange={change('login')}
          error={errors?.login}
        />
        <TextField
          label={t.login.password}
          type="password"
          name="password"
          autoComplete="current-password"
          value={values.password}
          onChange={change('password')}
          error={errors?.password}
        />
        <Button type="submit" className={styles.submit} disabled={submitting}>
          {t.login.submit}
        </Button>
      </form>
    </main>
  );
}
