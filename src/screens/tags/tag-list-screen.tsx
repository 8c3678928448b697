import { Link, useSearch } from 'wouter';
import type { Paged, TagSet } from '../../lib/contract';
import { t } from '../../lib/i18n';
import { deleteWithToasts } from '../../lib/toasts';
import { pageFromSearch, useApi } from '../../lib/use-api';
import { DataTable } from '../../components/data-table';
import { DeleteButton } from '../../components/delete-button';
import { CreateLink } from '../../components/create-link';
import { Page } from '../../components/page';
import { PagedList } from '../../components/paged-list';
import styles from './tag-screens.module.css';

export function TagListScreen() {
  const page = pageFromSearch(useSearch());
  const { data, error, loading, reload } = useApi<Paged<TagSet>>(`/tags?page=${page}`);

  const remove = (tagSet: TagSet) => {
    void deleteWithToasts(`/tags/${tagSet.id}`, t.tagSets.deleted).then(reload);
  };

  return (
    <Page title={t.tagSets.listTitle} actions={<CreateLink href="/tags/create" />}>
      <PagedList error={error} page={page} totalPages={data?.totalPages}>
        <DataTable
          rows={data?.data}
          loading={loading}
          rowKey={(tagSet) => tagSet.id}
          columns={[
            { header: t.tagSets.columnId, cell: (tagSet) => tagSet.id, width: '70px' },
            {
              header: t.tagSets.columnName,
              cell: (tagSet) => <Link href={`/tags/${tagSet.id}`}>{tagSet.name}</Link>,
              width: '30%',
            },
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
              cell: (tagSet) => (
                <DeleteButton label={t.tagSets.deleteLabel(tagSet.name)} onDelete={() => remove(tagSet)} />
              ),
              width: '56px',
              align: 'right',
            },
          ]}
        />
      </PagedList>
    </Page>
  );
}
