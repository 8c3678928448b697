import { Link } from 'wouter';
import type { TagSet } from '../../lib/contract';
import { t } from '../../lib/i18n';
import { DataTable } from '../../components/data-table';
import { DeleteButton } from '../../components/delete-button';
import { CreateLink } from '../../components/create-link';
import { Page } from '../../components/page';
import { PagedList } from '../../components/paged-list';
import { useListPage } from '../../components/use-resource';
import styles from './tag-screens.module.css';

export function TagListScreen() {
  const { page, data, error, loading, remove } = useListPage<TagSet>('tag-list', '/tags');

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
                <DeleteButton label={t.tagSets.deleteLabel(tagSet.name)} onDelete={() => remove(`/tags/${tagSet.id}`, t.tagSets.deleted)} />
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
