import { useEffect, useId, useState } from 'react';
import { useSelector } from '@xstate/react';
import type { PlanPreviewRow } from '../../lib/contract';
import * as t from '../../lib/i18n';
import { formatDate } from '../../lib/kyiv-time';
import { errorMessages } from '../../lib/api';
import { duplicateRows, planExportMachine, planImportMachine, rowsToSave } from '../../machines/plan-import-machine';
import { Upload } from 'lucide-react';
import { Button, buttonClass } from '../../components/button';
import { Dialog } from '../../components/dialog';
import { DuplicatesConsent } from '../../components/duplicates-consent';
import { ProgressBar } from '../../components/progress-bar';
import { useScreenActor } from '../../components/use-screen-actor';
import styles from './plan-dialogs.module.css';

/** Rows a preview lists, refused ones first: a month of an agency is thousands, and the refused are what to read. */
const rowsShown = 500;

function Errors({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <div className={styles.error} role="alert">
      {errorMessages(error).map((message) => (
        <p key={message}>{message}</p>
      ))}
    </div>
  );
}

function PreviewTable({ rows }: { rows: PlanPreviewRow[] }) {
  const ordered = [...rows].sort((one, other) => Number(one.ok) - Number(other.ok) || one.line - other.line).slice(0, rowsShown);
  return (
    // Scrolled by the keyboard too: it takes the focus, named as the rows it holds.
    // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
    <div className={styles.tableWrap} role="region" aria-label={t.plans.rowsLabel} tabIndex={0}>
      <table className={styles.table}>
        <thead>
          <tr>
            <th scope="col">{t.plans.line}</th>
            <th scope="col">{t.plans.state}</th>
            <th scope="col">{t.plans.video}</th>
            <th scope="col">{t.plans.profile}</th>
            <th scope="col">{t.plans.platform}</th>
            <th scope="col">{t.plans.date}</th>
          </tr>
        </thead>
        <tbody>
          {ordered.map((row) => (
            <tr
              key={row.line}
              className={row.duplicate ? styles.duplicate : styles[row.state]}
              data-line={row.line}
              data-state={row.state}
              data-duplicate={row.duplicate || undefined}
            >
              <td className={styles.lineCell}>{row.line}</td>
              <td className={styles.stateCell}>
                {row.ok ? t.plans.states[row.state] : <span className={styles.reason}>{row.reason}</span>}
              </td>
              <td data-label={t.plans.video}>{row.videoId === undefined ? '' : `#${row.videoId}`}</td>
              <td data-label={t.plans.profile}>{row.accountId === undefined ? '' : `#${row.accountId}`}</td>
              <td data-label={t.plans.platform}>{row.platform ? t.platform.names[row.platform] : ''}</td>
              <td data-label={t.plans.date} className={styles.date}>
                {row.date ? formatDate(row.date) : ''}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length > rowsShown && <p className={styles.note}>{t.plans.shown(rowsShown, rows.length)}</p>}
    </div>
  );
}

/**
 * 'Імпорт плану': a file picked and checked by the server, its preview row by row, and the
 * confirm that saves the new rows; `onSaved` lets the calendar show them.
 */
export function PlanImportDialog({ onClose, onSaved }: { onClose: () => void; onSaved: () => void }) {
  const fileId = useId();
  const actor = useScreenActor(planImportMachine, { id: 'planImport' });
  const { fileName, progress, preview, allowDuplicates, saved, error } = useSelector(actor, (snapshot) => snapshot.context);
  const checking = useSelector(actor, (snapshot) => snapshot.matches({ flow: 'checking' }));
  const saving = useSelector(actor, (snapshot) => snapshot.matches({ flow: 'saving' }));
  const done = useSelector(actor, (snapshot) => snapshot.matches({ flow: 'saved' }));
  const downloading = useSelector(actor, (snapshot) => snapshot.matches({ template: 'downloading' }));
  useEffect(() => {
    const subscription = actor.on('plan.saved', onSaved);
    return () => subscription.unsubscribe();
  }, [actor, onSaved]);
  const count = rowsToSave({ preview, allowDuplicates });
  const duplicates = duplicateRows(preview);

  return (
    <Dialog title={t.plans.importTitle} description={t.plans.importHint} onClose={onClose} wide>
      <div className={styles.pick}>
        {/* The browser's own file button speaks the browser's language: a button in Ukrainian opens it instead. */}
        <input
          id={fileId}
          className={styles.fileInput}
          aria-label={t.plans.file}
          type="file"
          accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          disabled={checking || saving}
          onChange={({ target }) => {
            const file = target.files?.[0];
            if (file) actor.send({ type: 'file.pick', file });
            target.value = '';
          }}
        />
        <label
          htmlFor={fileId}
          className={`${buttonClass(preview ? 'secondary' : 'primary')} ${checking || saving ? styles.disabled : ''}`}
        >
          <Upload size={16} aria-hidden /> {t.plans.chooseFile}
        </label>
        <Button variant="secondary" disabled={downloading} onClick={() => actor.send({ type: 'template.download' })}>
          {t.plans.template}
        </Button>
      </div>
      {fileName && <p className={styles.fileName}>{fileName}</p>}
      {checking && <ProgressBar value={progress} label={t.plans.checking} />}
      {checking && <p className={styles.note}>{t.plans.checking}</p>}
      <Errors error={error} />
      {preview && preview.rows.length === 0 && <p className={styles.note}>{t.plans.empty}</p>}
      {preview && preview.rows.length > 0 && (
        <>
          <p className={styles.summary} role="status">
            {t.plans.summary(preview.summary.ok, preview.summary.refused, preview.summary.unchanged)}
          </p>
          <PreviewTable rows={preview.rows} />
          {duplicates > 0 && !done && (
            <DuplicatesConsent
              className={styles.duplicates}
              label={t.plans.saveDuplicates}
              allowed={allowDuplicates}
              disabled={saving}
              onAllow={(allow) => actor.send({ type: 'duplicates.allow', allow })}
            >
              <p>{t.plans.duplicatesNote(duplicates)}</p>
            </DuplicatesConsent>
          )}
        </>
      )}
      {done && <p className={styles.summary}>{t.plans.saved(saved ?? 0)}</p>}
      <div className={styles.actions}>
        <Button variant="secondary" onClick={onClose}>
          {t.plans.close}
        </Button>
        {preview && !done && (
          <Button disabled={count === 0 || saving} onClick={() => actor.send({ type: 'plan.save' })}>
            {saving ? t.plans.saving : count === 0 ? t.plans.nothingToSave : t.plans.save(count)}
          </Button>
        )}
      </div>
    </Dialog>
  );
}

export interface ExportChoice {
  id: number;
  title: string;
}

/** 'Експорт плану': a period and one profile or group (or all), downloaded as the import's CSV. */
export function PlanExportDialog({
  from: initialFrom,
  to: initialTo,
  profiles,
  groups,
  onClose,
}: {
  from: string;
  to: string;
  profiles: ExportChoice[];
  groups: ExportChoice[];
  onClose: () => void;
}) {
  const fromId = useId();
  const toId = useId();
  const filterId = useId();
  const actor = useScreenActor(planExportMachine, { id: 'planExport' });
  const error = useSelector(actor, (snapshot) => snapshot.context.error);
  const downloading = useSelector(actor, (snapshot) => snapshot.matches('downloading'));
  const [from, setFrom] = useState(initialFrom);
  const [to, setTo] = useState(initialTo);
  const [filter, setFilter] = useState('');

  return (
    <Dialog title={t.plans.exportTitle} description={t.plans.exportHint} onClose={onClose}>
      <form
        className={styles.exportForm}
        onSubmit={(event) => {
          event.preventDefault();
          actor.send({
            type: 'export',
            request: {
              from,
              to,
              accountId: filter.startsWith('a') ? Number(filter.slice(1)) : null,
              groupId: filter.startsWith('g') ? Number(filter.slice(1)) : null,
            },
          });
        }}
      >
        <label htmlFor={fromId}>{t.plans.exportFrom}</label>
        <input id={fromId} type="date" value={from} required onChange={({ target }) => setFrom(target.value)} />
        <label htmlFor={toId}>{t.plans.exportTo}</label>
        <input id={toId} type="date" value={to} required onChange={({ target }) => setTo(target.value)} />
        <label htmlFor={filterId}>{t.plans.exportProfile}</label>
        <select id={filterId} value={filter} onChange={({ target }) => setFilter(target.value)}>
          <option value="">{t.plans.exportAll}</option>
          {groups.length > 0 && (
            <optgroup label={t.calendar.groups}>
              {groups.map((group) => (
                <option key={group.id} value={`g${group.id}`}>
                  {group.title}
                </option>
              ))}
            </optgroup>
          )}
          {profiles.length > 0 && (
            <optgroup label={t.calendar.profiles}>
              {profiles.map((profile) => (
                <option key={profile.id} value={`a${profile.id}`}>
                  {profile.title}
                </option>
              ))}
            </optgroup>
          )}
        </select>
        <Errors error={error} />
        <div className={styles.actions}>
          <Button variant="secondary" onClick={onClose}>
            {t.plans.close}
          </Button>
          <Button type="submit" disabled={downloading}>
            {downloading ? t.plans.exporting : t.plans.exportDownload}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
