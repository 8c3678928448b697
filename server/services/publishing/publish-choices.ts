import { asc, desc, eq } from 'drizzle-orm';
import type { PublicationRequestDetail } from '../../../src/lib/contract';
import type { Database } from '../../db/connect';
import { accountGroups, accounts } from '../../db/schema';
import { accountOption, publishProfileOption, switchedOnColumns } from '../profiles/account-views';
import { tagSetsOf } from '../library/tag-sets';

/** What the publish form offers: the profiles, tag sets and groups of the request's owner (not of an admin viewing it). */
export async function publishChoices(
  db: Database,
  ownerId: number,
): Promise<Pick<PublicationRequestDetail, 'accounts' | 'tagProfile' | 'group'>> {
  const [profiles, sets, groups] = await Promise.all([
    db.orm
      .select({
        id: accounts.id,
        groupId: accounts.groupId,
        comments: accounts.comments,
        youtubeLogin: accounts.youtubeLogin,
        instagramLogin: accounts.instagramLogin,
        ...switchedOnColumns,
      })
      .from(accounts)
      .where(eq(accounts.userId, ownerId))
      .orderBy(asc(accounts.id)),
    tagSetsOf(db, ownerId),
    db.orm.select().from(accountGroups).where(eq(accountGroups.userId, ownerId)).orderBy(desc(accountGroups.id)),
  ]);
  return {
    accounts: profiles.map(publishProfileOption),
    tagProfile: sets,
    group: groups.map((group) => ({
      id: group.id,
      name: group.name,
      accounts: profiles.filter((profile) => profile.groupId === group.id).map(accountOption),
    })),
  };
}
