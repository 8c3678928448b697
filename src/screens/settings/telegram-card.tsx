import { useSelector } from '@xstate/react';
import { Controller } from 'react-hook-form';
import type { TelegramSettings, TelegramTestResult } from '../../lib/contract';
import { telegramEvents } from '../../lib/contract';
import * as t from '../../lib/i18n';
import { formatMoment } from '../../lib/kyiv-time';
import { telegramChoicesSchema, type TelegramChoicesForm } from '../../lib/schemas';
import { telegramMachine } from '../../machines/telegram-machine';
import { Button, buttonClass } from '../../components/button';
import { LoadError } from '../../components/load-error';
import { Card } from '../../components/page';
import { Spinner } from '../../components/spinner';
import { useSchemaForm } from '../../components/use-schema-form';
import { useScreenActor } from '../../components/use-screen-actor';
import styles from './alerts.module.css';
import { useNow } from '../../components/use-now';

function Choices({
  settings,
  saving,
  onSave,
}: {
  settings: TelegramSettings;
  saving: boolean;
  onSave: (form: TelegramChoicesForm) => void;
}) {
  const { control, register, handleSubmit } = useSchemaForm(telegramChoicesSchema, { events: settings.events, digest: settings.digest });
  return (
    <form noValidate onSubmit={handleSubmit(onSave)} className={styles.choices}>
      <fieldset className={styles.checks}>
        <legend className={styles.legend}>{t.telegram.choices}</legend>
        <Controller
          control={control}
          name="events"
          render={({ field }) => (
            <>
              {telegramEvents.map((event) => (
                <label key={event} className={styles.check}>
                  <input
                    type="checkbox"
                    checked={field.value.includes(event)}
                    onChange={(change) =>
                      field.onChange(change.target.checked ? [...field.value, event] : field.value.filter((other) => other !== event))
                    }
                  />
                  {t.telegram.events[event]}
                </label>
              ))}
            </>
          )}
        />
        <label className={styles.check}>
          <input type="checkbox" {...register('digest')} />
          {t.telegram.digest}
        </label>
      </fieldset>
      <Button type="submit" variant="secondary" disabled={saving}>
        {t.telegram.save}
      </Button>
    </form>
  );
}

/** What the test message met, in words; a chat Telegram refused is told by the card's warning. */
function testOutcome(result: TelegramTestResult | null, chatName: string): string | null {
  if (result?.outcome === 'sent') return t.alertTests.telegramSent(chatName);
  if (result?.outcome === 'unreachable') return t.alertTests.telegramUnreachable;
  return null;
}

function Connection({
  settings,
  busy,
  testing,
  testResult,
  send,
}: {
  settings: TelegramSettings;
  busy: boolean;
  testing: boolean;
  testResult: TelegramTestResult | null;
  send: (type: 'connect' | 'disconnect' | 'test') => void;
}) {
  const now = useNow();
  if (settings.state === 'connecting') {
    const until = formatMoment(settings.codeExpiresAt!, now);
    return (
      <div className={styles.connecting}>
        <p className={styles.line}>{t.telegram.sendCode(settings.bot)}</p>
        <p className={styles.code} aria-label={t.telegram.code}>
          {settings.code}
        </p>
        <div className={styles.actions}>
          {settings.link && (
            <a className={buttonClass('primary')} href={settings.link} target="_blank" rel="noreferrer">
              {t.telegram.openBot}
            </a>
          )}
          <Button variant="secondary" disabled={busy} onClick={() => send('connect')}>
            {t.telegram.newCode}
          </Button>
        </div>
        <p className={styles.hint} role="status">
          {t.telegram.codeValid(until.day ? `${until.day} ${until.time}` : until.time)}
        </p>
      </div>
    );
  }
  if (settings.state === 'connected') {
    const outcome = testOutcome(testResult, settings.chatName ?? '');
    return (
      <div className={styles.connected}>
        <p className={styles.line} role="status">
          {t.telegram.connectedTo(settings.chatName ?? '')}
        </p>
        {settings.failure && (
          <p className={styles.warning} role="alert">
            {t.telegram.blocked}
          </p>
        )}
        <div className={styles.actions}>
          <Button variant="secondary" disabled={busy || testing} onClick={() => send('test')}>
            {testing ? t.alertTests.sending : t.alertTests.send}
          </Button>
          <Button variant="secondary" disabled={busy} onClick={() => send('connect')}>
            {t.telegram.reconnect}
          </Button>
          <Button variant="danger" disabled={busy} onClick={() => send('disconnect')}>
            {t.telegram.disconnect}
          </Button>
        </div>
        <p className={styles.hint} role="status">
          {outcome}
        </p>
      </div>
    );
  }
  return (
    <div className={styles.actions}>
      <Button disabled={busy} onClick={() => send('connect')}>
        {t.telegram.connect}
      </Button>
    </div>
  );
}

/** Settings: the user's Telegram chat for alerts, and what to be told there. */
export function TelegramCard() {
  const actor = useScreenActor(telegramMachine, { id: 'telegram' });
  const settings = useSelector(actor, (snapshot) => snapshot.context.settings);
  const error = useSelector(actor, (snapshot) => snapshot.context.error);
  const failed = useSelector(actor, (snapshot) => snapshot.matches('failed'));
  const busy = useSelector(actor, (snapshot) => snapshot.matches('issuing') || snapshot.matches('disconnecting'));
  const saving = useSelector(actor, (snapshot) => snapshot.matches('saving'));
  const testing = useSelector(actor, (snapshot) => snapshot.matches('testing'));
  const testResult = useSelector(actor, (snapshot) => snapshot.context.testResult);

  return (
    <section aria-labelledby="telegram-title" className={styles.section}>
      <Card>
        <h2 id="telegram-title" className={styles.heading}>
          {t.telegram.title}
        </h2>
        <p className={styles.hint}>{t.telegram.intro}</p>
        {failed ? (
          <LoadError error={error} />
        ) : !settings ? (
          <Spinner />
        ) : !settings.available ? (
          <p className={styles.line}>{t.telegram.unavailable}</p>
        ) : (
          <>
            <Connection settings={settings} busy={busy} testing={testing} testResult={testResult} send={(type) => actor.send({ type })} />
            <Choices
              key={`${settings.events.join()}:${settings.digest}`}
              settings={settings}
              saving={saving}
              onSave={(choices) => actor.send({ type: 'save', choices })}
            />
          </>
        )}
      </Card>
    </section>
  );
}
