import { and, desc, eq, inArray } from 'drizzle-orm';
import type { SessionUser } from '../../../src/lib/contract';
import type { Database } from '../../db/connect';
import { photos } from '../../db/schema';
import { visibleTo } from '../../auth/ownership';

/** The photos' rows; their files are put and deleted by the route, through the media store. */

export async function insertPhotos(db: Database, values: (typeof photos.$inferInsert)[]): Promise<{ id: number; fileKey: string }[]> {
  return db.orm.insert(photos).values(values).returning({ id: photos.id, fileKey: photos.fileKey });
}

/** Deletes the photo's row when the user sees it; the key of its file, or undefined when there was none. */
export async function deletePhotoRow(db: Database, user: SessionUser, id: number): Promise<{ fileKey: string } | undefined> {
  const [removed] = await db.orm
    .delete(photos)
    .where(and(eq(photos.id, id), visibleTo(user, photos.userId)))
    .returning({ fileKey: photos.fileKey });
  return removed;
}

/** The user's own images, newest first, at most `limit`: what the create form offers as backgrounds. */
export async function ownPhotos(db: Database, userId: number, limit: number): Promise<{ id: number; fileKey: string }[]> {
  return db.orm
    .select({ id: photos.id, fileKey: photos.fileKey })
    .from(photos)
    .where(eq(photos.userId, userId))
    .orderBy(desc(photos.id))
    .limit(limit);
}

/** How many of `ids` are the user's own images. */
export async function ownPhotoCount(db: Database, userId: number, ids: number[]): Promise<number> {
  const own = await db.orm
    .select({ id: photos.id })
    .from(photos)
    .where(and(eq(photos.userId, userId), inArray(photos.id, ids)));
  return own.length;
}
