import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { Copy } from 'lucide-react';
import { apiTokenScopes, type ApiToken, type ApiTokenScope, type CreatedApiToken, type Role } from '../../lib/contract';
import * as t from '../../lib/i18n';
import { formatDate } from '../../lib/kyiv-time';
import { apiTokenDayChoices, apiTokenSchemaFor, type ApiTokenForm } from '../../lib/schemas';
import { apiTokensMachine } from '../../machines/api-tokens-machine';
import { useSessionUser } from '../../components/auth-context';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DataTable } from '../../components/data-table';
import { FieldFrame, useFieldIds } from '../../components/field';
import { LoadError } from '../../components/load-error';
import { Card, Page } from '../../components/page';
import { TextAreaField } from '../../components/text-area-field';
import { TextField } from '../../components/text-field';
import { useFocusFirstError } from '../../components/use-focus-first-error';
import { useSchemaForm } from '../../components/use-schema-form';
import { useScreenActor } from '../../components/use-screen-actor';
import fieldStyles from '../../components/text-field.module.css';
import styles from './api-tokens-screen.module.css';

type TokensActor = ActorRefFrom<typeof apiTokensMachine>;

const emptyForm: ApiTokenForm = { name: '', scope: 'read', expiresInDays: 30 };

/** The token just made, its one showing: copy it, then hide it. */
function NewToken({ created, actor }: { created: CreatedApiToken; actor: TokensActor }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const copying = useSelector(actor, (snapshot) => snapshot.matches('copying'));
  const warningId = useId();
  // The token appears above the form that made it: the focus goes to it, so a screen reader says so.
  useEffect(() => heading.current?.focus(), [created.id]);
  return (
    <section className={styles.newToken} aria-labelledby={`${warningId}-title`}>
      <h2 id={`${warningId}-title`} ref={heading} tabIndex={-1} className={styles.heading}>
        {t.apiTokens.newTokenTitle(created.name)}
      </h2>
      <p id={warningId} className={styles.warning}>
        {t.apiTokens.newTokenWarning}
      </p>
      {/* A text area, so the whole token shows, wrapped, on a phone too. */}
      <TextAreaField
        label={t.apiTokens.newTokenLabel}
        value={created.token}
        readOnly
        rows={2}
        spellCheck={false}
        aria-describedby={warningId}
        className={`${fieldStyles.input} ${styles.secret}`}
        onFocus={(event) => event.currentTarget.select()}
      />
      <div className={styles.actions}>
        <Button variant="primary" disabled={copying} onClick={() => actor.send({ type: 'copy' })}>
          <Copy size={16} aria-hidden /> {t.apiTokens.copy}
        </Button>
        <Button variant="secondary" onClick={() => actor.send({ type: 'hide' })}>
          {t.apiTokens.hide}
        </Button>
      </div>
    </section>
  );
}

/** The scopes a user may give a token: never above their own role. */
const scopesFor = (role: Role): readonly ApiTokenScope[] =>
  role === 'admin' ? apiTokenScopes : apiTokenScopes.filter((scope) => scope !== 'admin');

function CreateTokenForm({ role, actor }: { role: Role; actor: TokensActor }) {
  const schema = useMemo(() => apiTokenSchemaFor(role), [role]);
  const { register, handleSubmit, reset, errors } = useSchemaForm(schema, emptyForm);
  const creating = useSelector(actor, (snapshot) => snapshot.matches('creating'));
  const createdId = useSelector(actor, (snapshot) => snapshot.context.created?.id);
  useEffect(() => {
    if (createdId !== undefined) reset(emptyForm);
  }, [createdId, reset]);
  const onSubmit = useFocusFirstError(handleSubmit((form) => actor.send({ type: 'create', form })));
  const expiry = useFieldIds(undefined, errors.expiresInDays?.message);
  const scopeErrorId = useId();

  return (
    <form noValidate className={styles.form} onSubmit={onSubmit}>
      <Card>
        <h2 className={styles.heading}>{t.apiTokens.createTitle}</h2>
        <TextField
          label={t.apiTokens.name}
          hint={t.apiTokens.nameHint}
          autoComplete="off"
          error={errors.name?.message}
          {...register('name')}
        />
        <fieldset className={styles.scopes} aria-describedby={errors.scope ? scopeErrorId : undefined}>
          <legend className={fieldStyles.label}>{t.apiTokens.scope}</legend>
          {scopesFor(role).map((scope) => (
            <label key={scope} className={styles.scope}>
              <input type="radio" value={scope} {...register('scope')} />
              <span>
                <span className={styles.scopeName}>{t.apiTokens.scopes[scope]}</span>
                <span className={fieldStyles.hint}>{t.apiTokens.scopeHints[scope]}</span>
              </span>
            </label>
          ))}
          {errors.scope && (
            <span id={scopeErrorId} className={fieldStyles.error} role="alert">
              {errors.scope.message}
            </span>
          )}
        </fieldset>
        <FieldFrame label={t.apiTokens.expiry} inputId={expiry.inputId} errorId={expiry.errorId} error={errors.expiresInDays?.message}>
          <select
            id={expiry.inputId}
            className={fieldStyles.input}
            {...expiry.aria}
            {...register('expiresInDays', { valueAsNumber: true })}
          >
            {apiTokenDayChoices.map((days) => (
              <option key={days} value={days}>
                {t.apiTokens.expiryOption(days)}
              </option>
            ))}
          </select>
        </FieldFrame>
        <Button type="submit" disabled={creating}>
          {t.apiTokens.submit}
        </Button>
      </Card>
    </form>
  );
}

function RevokeButton({ token, onRevoke }: { token: ApiToken; onRevoke: () => void }) {
  const [asking, setAsking] = useState(false);
  const label = t.apiTokens.revokeLabel(token.name);
  return (
    <>
      <Button variant="secondary" aria-label={label} onClick={() => setAsking(true)}>
        {t.apiTokens.revoke}
      </Button>
      {asking && (
        <ConfirmDialog
          question={t.confirm.question(label)}
          consequence={t.apiTokens.revokeConsequence}
          action={t.apiTokens.revoke}
          onCancel={() => setAsking(false)}
          onConfirm={() => {
            setAsking(false);
            onRevoke();
          }}
        />
      )}
    </>
  );
}

function TokenList({ actor }: { actor: TokensActor }) {
  const tokens = useSelector(actor, (snapshot) => snapshot.context.tokens);
  const error = useSelector(actor, (snapshot) => snapshot.context.error);
  const failed = useSelector(actor, (snapshot) => snapshot.matches('failed'));
  const loading = useSelector(actor, (snapshot) => snapshot.matches('loading'));
  const headingId = useId();
  return (
    <section className={styles.list} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles.heading}>
        {t.apiTokens.listTitle}
      </h2>
      {failed ? (
        <div className={styles.loadError}>
          <LoadError error={error} />
          <Button variant="secondary" onClick={() => actor.send({ type: 'reload' })}>
            {t.apiTokens.reload}
          </Button>
        </div>
      ) : (
        <DataTable
          rows={tokens}
          rowKey={(token) => token.id}
          loading={loading}
          columns={[
            { header: t.apiTokens.columnName, cell: (token) => <span className={styles.name}>{token.name}</span>, width: '28%' },
            { header: t.apiTokens.columnScope, cell: (token) => t.apiTokens.scopes[token.scope] },
            {
              header: t.apiTokens.columnExpires,
              cell: (token) =>
                token.expired ? (
                  <span className={styles.expired}>
                    {formatDate(token.expiresAt)}, {t.apiTokens.expired}
                  </span>
                ) : (
                  formatDate(token.expiresAt)
                ),
            },
            {
              header: t.apiTokens.columnLastUsed,
              cell: (token) =>
                token.lastUsedAt ? formatDate(token.lastUsedAt) : <span className={styles.muted}>{t.apiTokens.neverUsed}</span>,
            },
            {
              header: '',
              cell: (token) => <RevokeButton token={token} onRevoke={() => actor.send({ type: 'revoke', id: token.id })} />,
              align: 'right',
            },
          ]}
        />
      )}
    </section>
  );
}

export function ApiTokensScreen() {
  const user = useSessionUser();
  const actor = useScreenActor(apiTokensMachine, { id: 'api-tokens' });
  const created = useSelector(actor, (snapshot) => snapshot.context.created);
  return (
    <Page title={t.apiTokens.title}>
      <p className={styles.intro}>{t.apiTokens.intro}</p>
      {created && <NewToken created={created} actor={actor} />}
      <CreateTokenForm role={user?.role ?? 'user'} actor={actor} />
      <TokenList actor={actor} />
    </Page>
  );
}
