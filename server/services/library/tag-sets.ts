import { and, desc, eq } from 'drizzle-orm';
import type { SessionUser, TagSet } from '../../../src/lib/contract';
import type { TagSetForm } from '../../../src/lib/schemas';
import { addTags } from '../../../src/lib/tags';
import type { Database } from '../../db/connect';
import { tagSets } from '../../db/schema';
import { found, visibleTo } from '../../auth/ownership';

/** The tag sets' rows as their routes read and write them; another operator's set is not found (404). */

const toTagSet = ({ id, name, tags }: typeof tagSets.$inferSelect): TagSet => ({ id, name, tags });

/** Tags are kept the way the tag input makes them, whoever sends them: trimmed, lower-cased, no duplicates. */
const columns = (form: TagSetForm) => ({ name: form.name.trim(), tags: addTags([], form.tags.join(' ')) });

const ownedTagSet = (user: SessionUser, id: number) => and(eq(tagSets.id, id), visibleTo(user, tagSets.userId));

export async function tagSetOf(db: Database, user: SessionUser, id: number): Promise<TagSet> {
  const [row] = await db.orm.select().from(tagSets).where(ownedTagSet(user, id));
  return toTagSet(found(row));
}

export async function createTagSet(db: Database, user: SessionUser, form: TagSetForm): Promise<TagSet> {
  const [row] = await db.orm
    .insert(tagSets)
    .values({ userId: user.id, ...columns(form) })
    .returning();
  return toTagSet(row);
}

/** The set's id when the user sees it; another operator's set is not found (404). */
export async function visibleTagSetId(db: Database, user: SessionUser, id: number): Promise<number> {
  return found((await db.orm.select({ id: tagSets.id }).from(tagSets).where(ownedTagSet(user, id)))[0]).id;
}

export async function updateTagSet(db: Database, id: number, form: TagSetForm): Promise<TagSet> {
  const [row] = await db.orm.update(tagSets).set(columns(form)).where(eq(tagSets.id, id)).returning();
  return toTagSet(row);
}

export async function deleteTagSet(db: Database, user: SessionUser, id: number): Promise<void> {
  const deleted = await db.orm.delete(tagSets).where(ownedTagSet(user, id)).returning({ id: tagSets.id });
  found(deleted[0]);
}

/** The owner's tag sets, newest first, as the publish forms offer them. */
export async function tagSetsOf(db: Database, ownerId: number): Promise<TagSet[]> {
  const rows = await db.orm.select().from(tagSets).where(eq(tagSets.userId, ownerId)).orderBy(desc(tagSets.id));
  return rows.map(toTagSet);
}
