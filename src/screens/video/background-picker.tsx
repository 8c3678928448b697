import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { Link } from 'wouter';
import * as t from '../../lib/i18n';
import type { backgroundsMachine } from '../../machines/backgrounds-machine';
import { Button } from '../../components/button';
import { LoadError } from '../../components/load-error';
import styles from './background-picker.module.css';

interface BackgroundPickerProps {
  actor: ActorRefFrom<typeof backgroundsMachine>;
  /** What is wrong with the choice, once a submit was tried. */
  error: string | undefined;
  disabled: boolean;
}

/** The operator's images as checkboxes: which ones the request's variants may stand on. */
export function BackgroundPicker({ actor, error, disabled }: BackgroundPickerProps) {
  const state = useSelector(actor, (snapshot) => snapshot.value);
  const images = useSelector(actor, (snapshot) => snapshot.context.images);
  const chosen = useSelector(actor, (snapshot) => snapshot.context.chosen);
  const loadError = useSelector(actor, (snapshot) => snapshot.context.error);
  const chosenIds = new Set(chosen);

  return (
    <fieldset className={styles.picker} disabled={disabled}>
      <legend className={styles.legend}>{t.createVideo.backgrounds}</legend>
      {state === 'loading' && <p className={styles.note}>{t.app.loading}</p>}
      {state === 'failed' && (
        <div className={styles.note}>
          <LoadError error={loadError} />
          <Button variant="secondary" onClick={() => actor.send({ type: 'reload' })}>
            {t.createVideo.reloadBackgrounds}
          </Button>
        </div>
      )}
      {state === 'none' && (
        <p className={styles.none} role="status">
          {t.createVideo.noBackgrounds} <Link href="/photos/create">{t.createVideo.uploadBackgrounds}</Link>
        </p>
      )}
      {state === 'choosing' && (
        <>
          <div className={styles.toolbar}>
            <span className={styles.count} aria-live="polite">
              {t.createVideo.backgroundsChosen(chosen.length, images.length)}
            </span>
            <Button variant="ghost" onClick={() => actor.send({ type: 'choose.all' })}>
              {t.createVideo.chooseAll}
            </Button>
            <Button variant="ghost" onClick={() => actor.send({ type: 'choose.none' })}>
              {t.createVideo.chooseNone}
            </Button>
          </div>
          <ul className={styles.grid}>
            {images.map((image) => (
              <li key={image.id}>
                <label className={styles.tile}>
                  <input
                    type="checkbox"
                    className={styles.check}
                    aria-label={t.photos.image(image.id)}
                    checked={chosenIds.has(image.id)}
                    onChange={() => actor.send({ type: 'toggle', id: image.id })}
                  />
                  <img className={styles.image} src={image.url} alt="" loading="lazy" />
                </label>
              </li>
            ))}
          </ul>
          {error && (
            <p className={styles.error} role="alert">
              {error}
            </p>
          )}
        </>
      )}
    </fieldset>
  );
}
