import { Link } from 'wouter';
import { Plus } from 'lucide-react';
import type { Photo } from '../../lib/contract';
import * as t from '../../lib/i18n';
import { buttonClass } from '../../components/button';
import { DeleteButton } from '../../components/delete-button';
import { EmptyState } from '../../components/empty-state';
import { Page } from '../../components/page';
import { Pagination } from '../../components/pagination';
import { Spinner } from '../../components/spinner';
import { useListPage } from '../../components/use-resource';
import styles from './photo-list-screen.module.css';

export function PhotoListScreen() {
  const { data, loading, remove } = useListPage<Photo>('photo-list', '/photo-bg');

  return (
    <Page
      title={
        <>
          {t.photos.title}
          {data && <span className={styles.count}>{data.total}</span>}
        </>
      }
      actions={
        <Link href="/photos/create" className={buttonClass()}>
          <Plus size={16} aria-hidden />
          {t.photos.add}
        </Link>
      }
    >
      {loading && !data ? (
        <Spinner />
      ) : data && data.data.length > 0 ? (
        <ul className={styles.grid}>
          {data.data.map((photo) => (
            <li key={photo.id} className={styles.tile}>
              <img src={photo.url} alt={t.photos.image(photo.id)} loading="lazy" className={styles.image} />
              <DeleteButton
                className={styles.delete}
                label={`${t.app.delete}: ${t.photos.image(photo.id)}`}
                consequence={t.confirm.photoConsequence}
                onDelete={() => remove(`/photo-bg/${photo.id}`, t.photos.deleted)}
              />
            </li>
          ))}
        </ul>
      ) : (
        <div className={styles.empty}>
          <EmptyState hint={t.screens.empty.photos} />
        </div>
      )}
      {data && <Pagination page={data.page} totalPages={data.totalPages} />}
    </Page>
  );
}
