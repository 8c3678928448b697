import { useEffect } from 'react';
import { useSelector } from '@xstate/react';
import { Link } from 'wouter';
import * as t from '../../lib/i18n';
import { passwordChangeSchema, type PasswordChangeForm } from '../../lib/schemas';
import { passwordMachine } from '../../machines/password-machine';
import { useSessionUser } from '../../components/auth-context';
import { Button } from '../../components/button';
import { NewPasswordFields } from '../../components/new-password-fields';
import { Card, Page } from '../../components/page';
import { TextField } from '../../components/text-field';
import { useSchemaForm } from '../../components/use-schema-form';
import { useScreenActor } from '../../components/use-screen-actor';
import { useFocusFirstError } from '../../components/use-focus-first-error';
import { TelegramCard } from './telegram-card';
import { WebhooksCard } from './webhooks-card';
import styles from './settings-screen.module.css';

const emptyPasswordForm: PasswordChangeForm = { current_password: '', password: '', password_confirmation: '' };

function PasswordCard() {
  const actor = useScreenActor(passwordMachine, { id: 'password' });
  const saving = useSelector(actor, (snapshot) => snapshot.matches('saving'));
  const changed = useSelector(actor, (snapshot) => snapshot.matches('changed'));
  const { register, handleSubmit, reset, errors } = useSchemaForm(passwordChangeSchema, emptyPasswordForm);
  useEffect(() => {
    if (changed) reset(emptyPasswordForm);
  }, [changed, reset]);
  const onSubmit = useFocusFirstError(handleSubmit((values) => actor.send({ type: 'submit', form: values })));

  return (
    <form noValidate className={styles.form} onSubmit={onSubmit}>
      <Card>
        <h2 className={styles.heading}>{t.settings.changePassword}</h2>
        <TextField
          label={t.settings.currentPassword}
          type="password"
          autoComplete="current-password"
          error={errors.current_password?.message}
          {...register('current_password')}
        />
        <NewPasswordFields password={register('password')} confirmation={register('password_confirmation')} errors={errors} />
        <Button type="submit" disabled={saving}>
          {t.settings.submitPassword}
        </Button>
      </Card>
    </form>
  );
}

export function SettingsScreen() {
  const user = useSessionUser();
  return (
    <Page title={t.settings.title}>
      <Card>
        <h2 className={styles.heading}>{t.settings.account}</h2>
        <dl className={styles.facts}>
          <dt>{t.settings.login}</dt>
          <dd>{user?.login}</dd>
          <dt>{t.settings.role}</dt>
          <dd>{user?.role === 'admin' ? t.settings.roleAdmin : t.settings.roleUser}</dd>
          <dt>{t.settings.timezone}</dt>
          <dd>{t.settings.timezoneValue}</dd>
        </dl>
      </Card>
      <PasswordCard />
      <div className={styles.form}>
        <Card>
          <h2 className={styles.heading}>{t.apiTokens.title}</h2>
          <p className={styles.hint}>{t.apiTokens.settingsHint}</p>
          <Link href="/setting/tokens">{t.apiTokens.settingsLink}</Link>
        </Card>
      </div>
      <TelegramCard />
      <WebhooksCard />
    </Page>
  );
}
