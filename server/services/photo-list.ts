import { count, desc } from 'drizzle-orm';
import type { Paged, Photo, SessionUser } from '../../src/lib/contract';
import type { Database } from '../db/connect';
import { photos } from '../db/schema';
import { visibleTo } from '../auth/ownership';
import { offsetOf, paged, pageSize } from '../routes/paging';
import { totalBesideRows, totalOf } from './page-total';

/** Background images of a user (everyone's for an admin), newest first: index photos (user_id, id DESC). */
export async function photoPage(db: Database, user: SessionUser, page: number, urlOf: (fileKey: string) => string): Promise<Paged<Photo>> {
  const where = visibleTo(user, photos.userId);
  const rows = await db.orm
    .select({ id: photos.id, fileKey: photos.fileKey, total: totalBesideRows })
    .from(photos)
    .where(where)
    .orderBy(desc(photos.id))
    .limit(pageSize)
    .offset(offsetOf(page));
  const total = await totalOf(rows, async () => (await db.orm.select({ total: count() }).from(photos).where(where))[0]!.total);
  return paged(
    rows.map((row) => ({ id: row.id, url: urlOf(row.fileKey) })),
    total,
    page,
  );
}
