import { Link, useSearch } from 'wouter';
import { Plus } from 'lucide-react';
import { api } from '../../lib/api';
import type { Paged, TagSet } from '../../lib/contract';
import { t } from '../../lib/i18n';
import { toastDeletion } from '../../lib/toasts';
import { pageFromSearch, useApi } from '../../lib/use-api';
import { buttonClass } from '../../components/button';
import { DataTable } from '../../components/data-table';
import { DeleteButton } from '../../components/delete-button';
import { LoadError } from '../../components/load-error';
import { Page } from '../../components/page';
import { Pagination } from '../../components/pagination';
import styles from './tag-screens.module.css';

export function TagListScreen() {
  const page = pageFromSearch(useSearch());
  const { data, error, loading, reload } = useApi<Paged<TagSet>>(`/tags?page=${page}`);

  const remove = (tagSet: TagSet) => {
    toastDeletion(api('DELETE', `/tags/${tagSet.id}`), t.tagSets.deleted)
      .catch(() => undefined)
      .finally(reload);
  };

  return (
    <Page
      title={t.tagSets.listTitle}
      actions={
        <Link href="/tags/create" className={buttonClass()}>
          <Plus size={16} aria-hidden /> {t.app.create}
        </Link>
      }
    >
      {error ? (
        <LoadError error={error} />
      ) : (
        <>
          <DataTable
            rows={data?.data}
            loading={loading}
            rowKey={(tagSet) => tagSet.id}
            columns={[
              { header: t.tagSets.columnId, cell: (tagSet) => tagSet.id, width: '70px' },
              { header: t.tagSets.columnName, cell: (tagSet) => <Link href={`/tags/${tagSet.id}`}>{tagSet.name}</Link>, width: '30%' },
              {
                header: t.tagSets.columnTags,
                cell: (tagSet) => (
                  <span className={styles.tags}>
                    {tagSet.tags.map((tag) => (
                      <span key={tag} className={styles.tag}>
                        {tag}
                      </span>
                    ))}
                  </span>
                ),
              },
              {
                header: '',
                cell: (tagSet) => <DeleteButton label={t.tagSets.deleteLabel(tagSet.name)} onDelete={() => remove(tagSet)} />,
                width: '56px',
                align: 'right',
              },
            ]}
          />
          <Pagination page={page} totalPages={data?.totalPages ?? 0} />
        </>
      )}
    </Page>
  );
}
