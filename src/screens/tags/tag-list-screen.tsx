import { Link } from 'wouter';
import type { TagSet } from '../../lib/contract';
import * as t from '../../lib/i18n';
import { DeleteButton } from '../../components/delete-button';
import { CreateLink } from '../../components/create-link';
import { Page } from '../../components/page';
import { PagedTable } from '../../components/paged-list';
import { useListPage } from '../../components/use-resource';
import styles from './tag-screens.module.css';

export function TagListScreen() {
  const list = useListPage<TagSet>('tag-list', '/tags');

  return (
    <Page title={t.tagSets.listTitle} actions={<CreateLink href="/tags/create" />}>
      <PagedTable
        list={list}
        emptyHint={t.screens.empty.tagSets}
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
              <DeleteButton
                label={t.tagSets.deleteLabel(tagSet.name)}
                consequence={t.confirm.tagSetConsequence}
                onDelete={() => list.remove(`/tags/${tagSet.id}`, t.tagSets.deleted)}
              />
            ),
            width: '56px',
            align: 'right',
          },
        ]}
      />
    </Page>
  );
}
