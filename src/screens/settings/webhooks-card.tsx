import { useCallback, useState } from 'react';
import { Controller } from 'react-hook-form';
import { alertEvents, defaultWebhookEvents, type Webhook, type WebhookDelivery } from '../../lib/contract';
import { t } from '../../lib/i18n';
import { formatDate } from '../../lib/kyiv-time';
import { webhookSchema, type WebhookForm } from '../../lib/schemas';
import { Button } from '../../components/button';
import { DataTable, type Column } from '../../components/data-table';
import { DeleteButton } from '../../components/delete-button';
import { LoadError } from '../../components/load-error';
import { Card } from '../../components/page';
import { Spinner } from '../../components/spinner';
import { TextField } from '../../components/text-field';
import { useFocusFirstError } from '../../components/use-focus-first-error';
import { useResource } from '../../components/use-resource';
import { useSchemaForm } from '../../components/use-schema-form';
import styles from './alerts.module.css';

const emptyForm: WebhookForm = { url: '', events: defaultWebhookEvents, secret: '' };

/** 32 random bytes, URL-safe: as hard to guess as the HMAC key it becomes. */
function randomSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/** What the last attempt met, in words: the answer's status, or why none came. */
function outcomeOf(delivery: { status: number | null; error: string | null }): string {
  if (delivery.status !== null) return t.webhooks.status(delivery.status);
  return delivery.error ? (t.webhooks.errors[delivery.error] ?? delivery.error) : '';
}

function StateBadge({ state }: { state: string }) {
  return <span className={`${styles.badge} ${styles[state]}`}>{t.webhooks.states[state]}</span>;
}

const deliveryColumns: Column<WebhookDelivery>[] = [
  { header: t.webhooks.columns.event, cell: (delivery) => t.alertEvents[delivery.event] },
  {
    header: t.webhooks.columns.state,
    cell: (delivery) => (
      <span className={styles.stateCell}>
        <StateBadge state={delivery.state} />
        {delivery.nextAttemptAt && delivery.attempts > 0 && (
          <span className={styles.muted}>{t.webhooks.nextAttempt(formatDate(delivery.nextAttemptAt))}</span>
        )}
      </span>
    ),
  },
  {
    header: t.webhooks.columns.answer,
    cell: (delivery) => (
      <span className={styles.answer}>
        {outcomeOf(delivery)}
        {delivery.answer && <code className={styles.answerText}>{delivery.answer}</code>}
      </span>
    ),
  },
  { header: t.webhooks.columns.attempts, cell: (delivery) => delivery.attempts, width: '90px' },
  { header: t.webhooks.columns.created, cell: (delivery) => formatDate(delivery.createdAt), width: '150px' },
];

function Deliveries({ webhook }: { webhook: Webhook }) {
  const { data, error, loading } = useResource<{ data: WebhookDelivery[] }>(
    `webhook-${webhook.id}-deliveries`,
    `/webhooks/${webhook.id}/deliveries`,
  );
  return (
    <div className={styles.deliveries} id={`webhook-${webhook.id}-deliveries`}>
      <h4 className={styles.subheading}>{t.webhooks.deliveriesOf(webhook.url)}</h4>
      {error ? (
        <LoadError error={error} />
      ) : (
        <DataTable columns={deliveryColumns} rows={data?.data} rowKey={(row) => row.id} loading={loading} />
      )}
    </div>
  );
}

function WebhookItem({ webhook, onRemove }: { webhook: Webhook; onRemove: () => void }) {
  const [open, setOpen] = useState(false);
  const last = webhook.lastDelivery;
  return (
    <li className={styles.webhook}>
      <div className={styles.webhookHead}>
        <code className={styles.url}>{webhook.url}</code>
        <DeleteButton label={t.webhooks.remove(webhook.url)} consequence={t.webhooks.removeConsequence} onDelete={onRemove} />
      </div>
      <p className={styles.muted}>{webhook.events.map((event) => t.alertEvents[event]).join(', ')}</p>
      <p className={styles.stateCell}>
        {last ? (
          <>
            <StateBadge state={last.state} />
            <span className={styles.muted}>
              {formatDate(last.at)} {outcomeOf(last)}
            </span>
          </>
        ) : (
          <span className={styles.muted}>{t.webhooks.neverDelivered}</span>
        )}
      </p>
      <Button variant="secondary" aria-expanded={open} aria-controls={`webhook-${webhook.id}-deliveries`} onClick={() => setOpen(!open)}>
        {open ? t.webhooks.hideDeliveries : t.webhooks.showDeliveries}
      </Button>
      {open && <Deliveries webhook={webhook} />}
    </li>
  );
}

/** Settings: the user's webhooks for scripts and n8n, each with its delivery log. */
export function WebhooksCard() {
  const { register, control, handleSubmit, reset, setValue, errors } = useSchemaForm(webhookSchema, emptyForm);
  const onSaved = useCallback(() => reset(emptyForm), [reset]);
  const { data, error, saving, save, remove } = useResource<{ data: Webhook[] }>('webhooks', '/webhooks', { onSaved });
  const onSubmit = useFocusFirstError(
    handleSubmit((form) =>
      save({ method: 'POST', path: '/webhooks', body: { ...form, url: form.url.trim() }, successText: t.webhooks.added }),
    ),
  );

  return (
    <section aria-labelledby="webhooks-title" className={styles.section}>
      <Card>
        <h2 id="webhooks-title" className={styles.heading}>
          {t.webhooks.title}
        </h2>
        <p className={styles.hint}>{t.webhooks.intro}</p>
        <form noValidate onSubmit={onSubmit} className={styles.form}>
          <TextField
            label={t.webhooks.url}
            type="url"
            inputMode="url"
            autoComplete="off"
            placeholder="https://"
            error={errors.url?.message}
            {...register('url')}
          />
          <Controller
            control={control}
            name="events"
            render={({ field, fieldState }) => (
              <fieldset className={styles.checks} aria-describedby={fieldState.error ? 'webhook-events-error' : undefined}>
                <legend className={styles.legend}>{t.webhooks.events}</legend>
                {alertEvents.map((event, index) => (
                  <label key={event} className={styles.check}>
                    <input
                      type="checkbox"
                      aria-invalid={fieldState.error && index === 0 ? true : undefined}
                      checked={field.value.includes(event)}
                      onChange={(change) =>
                        field.onChange(change.target.checked ? [...field.value, event] : field.value.filter((other) => other !== event))
                      }
                    />
                    {t.alertEvents[event]}
                  </label>
                ))}
                {fieldState.error && (
                  <span id="webhook-events-error" className={styles.error} role="alert">
                    {fieldState.error.message}
                  </span>
                )}
              </fieldset>
            )}
          />
          <div className={styles.secretRow}>
            <TextField
              label={t.webhooks.secret}
              autoComplete="off"
              spellCheck={false}
              hint={t.webhooks.secretHint}
              error={errors.secret?.message}
              {...register('secret')}
            />
            <Button variant="secondary" onClick={() => setValue('secret', randomSecret(), { shouldValidate: true })}>
              {t.webhooks.generateSecret}
            </Button>
          </div>
          <div className={styles.actions}>
            <Button type="submit" disabled={saving}>
              {t.webhooks.add}
            </Button>
          </div>
        </form>
        <h3 className={styles.subheading}>{t.webhooks.list}</h3>
        {error ? (
          <LoadError error={error} />
        ) : !data ? (
          <Spinner />
        ) : data.data.length === 0 ? (
          <p className={styles.muted}>{t.webhooks.empty}</p>
        ) : (
          <ul className={styles.webhooks}>
            {data.data.map((webhook) => (
              <WebhookItem key={webhook.id} webhook={webhook} onRemove={() => remove(`/webhooks/${webhook.id}`, t.webhooks.deleted)} />
            ))}
          </ul>
        )}
      </Card>
    </section>
  );
}
