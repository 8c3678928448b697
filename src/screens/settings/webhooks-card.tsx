import { useCallback, useState } from 'react';
import { useSelector } from '@xstate/react';
import { Controller, type Control } from 'react-hook-form';
import { alertEvents, defaultWebhookEvents, type Webhook, type WebhookDelivery, type WebhookTestResult } from '../../lib/contract';
import * as t from '../../lib/i18n';
import { formatDate } from '../../lib/kyiv-time';
import { webhookSchema, webhookTargetSchema, type WebhookForm, type WebhookTargetForm } from '../../lib/schemas';
import { newWebhookSecret } from '../../lib/webhook-secret';
import type { SaveRequest } from '../../machines/resource-machine';
import { webhookTestMachine } from '../../machines/webhook-test-machine';
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
import { useScreenActor } from '../../components/use-screen-actor';
import tones from '../../components/badge-tones.module.css';
import styles from './alerts.module.css';

const emptyForm: WebhookForm = { url: '', events: defaultWebhookEvents, secret: '' };

/** What the last attempt met, in words: the answer's status, or why none came. */
function outcomeOf(delivery: { status: number | null; error: string | null }): string {
  if (delivery.status !== null) return t.webhooks.status(delivery.status);
  return delivery.error ? (t.webhooks.errors[delivery.error] ?? delivery.error) : '';
}

/** What the test event met, in words. */
function testOutcome(result: WebhookTestResult): string {
  if (result.delivered) return t.alertTests.delivered(result.status!);
  if (result.status !== null) return t.alertTests.answered(result.status);
  return t.alertTests.notDelivered[result.error!] ?? '';
}

/**
 * The events to tick, for the add form and each edit form alike; `id` keeps their error lines apart.
 * It reads only `events`, which both forms have: the add form's control, which has the secret too, is
 * passed as the target's.
 */
function EventChecks({ control, id }: { control: Control<WebhookTargetForm>; id: string }) {
  return (
    <Controller
      control={control}
      name="events"
      render={({ field, fieldState }) => (
        <fieldset className={styles.checks} aria-describedby={fieldState.error ? `${id}-events-error` : undefined}>
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
            <span id={`${id}-events-error`} className={styles.error} role="alert">
              {fieldState.error.message}
            </span>
          )}
        </fieldset>
      )}
    />
  );
}

/** A webhook's URL and events changed in place; the secret is not asked again. */
function EditForm({
  webhook,
  saving,
  onSave,
  onCancel,
}: {
  webhook: Webhook;
  saving: boolean;
  onSave: (form: WebhookTargetForm) => void;
  onCancel: () => void;
}) {
  const { register, control, handleSubmit, errors } = useSchemaForm(webhookTargetSchema, { url: webhook.url, events: webhook.events });
  const onSubmit = useFocusFirstError(handleSubmit((form) => onSave({ ...form, url: form.url.trim() })));
  const id = `webhook-${webhook.id}-edit`;
  return (
    <form noValidate onSubmit={onSubmit} className={`${styles.form} ${styles.editForm}`} aria-labelledby={`${id}-title`}>
      <h4 id={`${id}-title`} className={styles.editTitle}>
        {t.alertTests.editTitle}
      </h4>
      <TextField label={t.webhooks.url} type="url" inputMode="url" autoComplete="off" error={errors.url?.message} {...register('url')} />
      <EventChecks control={control as unknown as Control<WebhookTargetForm>} id={id} />
      <p className={styles.hint}>{t.alertTests.secretKept}</p>
      <div className={styles.actions}>
        <Button type="submit" disabled={saving}>
          {t.alertTests.saveEdit}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          {t.alertTests.cancelEdit}
        </Button>
      </div>
    </form>
  );
}

const stateTone: Record<string, string | undefined> = { delivered: tones.success, pending: tones.warning, failed: tones.danger };

function StateBadge({ state }: { state: string }) {
  return <span className={`${styles.badge} ${stateTone[state] ?? tones.neutral}`}>{t.webhooks.states[state]}</span>;
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

function WebhookItem({
  webhook,
  editing,
  saving,
  onEdit,
  onSave,
  onRemove,
}: {
  webhook: Webhook;
  editing: boolean;
  saving: boolean;
  onEdit: (editing: boolean) => void;
  onSave: (form: WebhookTargetForm) => void;
  onRemove: () => void;
}) {
  const [open, setOpen] = useState(false);
  const tester = useScreenActor(webhookTestMachine, { id: `webhook-${webhook.id}-test`, input: { webhookId: webhook.id } });
  const testing = useSelector(tester, (snapshot) => snapshot.matches('sending'));
  const result = useSelector(tester, (snapshot) => snapshot.context.result);
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
      <div className={styles.itemActions}>
        <Button variant="secondary" aria-expanded={open} aria-controls={`webhook-${webhook.id}-deliveries`} onClick={() => setOpen(!open)}>
          {open ? t.webhooks.hideDeliveries : t.webhooks.showDeliveries}
        </Button>
        <Button
          variant="secondary"
          aria-label={t.alertTests.sendWebhook(webhook.url)}
          aria-busy={testing}
          disabled={testing}
          onClick={() => tester.send({ type: 'send' })}
        >
          {t.alertTests.send}
        </Button>
        <Button
          variant="secondary"
          aria-label={t.alertTests.editWebhook(webhook.url)}
          aria-expanded={editing}
          onClick={() => onEdit(!editing)}
        >
          {t.alertTests.edit}
        </Button>
      </div>
      <p className={result && !result.delivered ? styles.testFailed : styles.testOutcome} role="status">
        {result && testOutcome(result)}
      </p>
      {editing && <EditForm webhook={webhook} saving={saving} onSave={onSave} onCancel={() => onEdit(false)} />}
      {open && <Deliveries webhook={webhook} />}
    </li>
  );
}

/** Settings: the user's webhooks for scripts and n8n, each with its delivery log. */
export function WebhooksCard() {
  const { register, control, handleSubmit, reset, setValue, errors } = useSchemaForm(webhookSchema, emptyForm);
  const [editing, setEditing] = useState<number | null>(null);
  // A saved edit closes its form; a saved add empties the add form.
  const onSaved = useCallback(() => (editing === null ? reset(emptyForm) : setEditing(null)), [editing, reset]);
  const { data, error, saving, save, remove } = useResource<{ data: Webhook[] }>('webhooks', '/webhooks', { onSaved });
  const saveEdit = (id: number, form: WebhookTargetForm) =>
    save({ method: 'PATCH', path: `/webhooks/${id}`, body: form, successText: t.alertTests.updated } satisfies SaveRequest);
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
          <EventChecks control={control as unknown as Control<WebhookTargetForm>} id="webhook" />
          <div className={styles.secretRow}>
            <TextField
              label={t.webhooks.secret}
              autoComplete="off"
              spellCheck={false}
              hint={t.webhooks.secretHint}
              error={errors.secret?.message}
              {...register('secret')}
            />
            <Button variant="secondary" onClick={() => setValue('secret', newWebhookSecret(), { shouldValidate: true })}>
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
              <WebhookItem
                key={webhook.id}
                webhook={webhook}
                editing={editing === webhook.id}
                saving={saving}
                onEdit={(open) => setEditing(open ? webhook.id : null)}
                onSave={(form) => saveEdit(webhook.id, form)}
                onRemove={() => remove(`/webhooks/${webhook.id}`, t.webhooks.deleted)}
              />
            ))}
          </ul>
        )}
      </Card>
    </section>
  );
}
