import type { HomeSummary, SessionUser } from '../../../src/lib/contract';
import { kyivDay, rangeOf } from '../../../src/lib/calendar';
import { visibleOwner } from '../../auth/ownership';
import type { Database } from '../../db/connect';
import { platforms } from '../../../src/lib/platforms';
import { summaryColumns } from './account-list';
import { accountOption, toAccountSummary, type AccountSummaryRow } from '../profiles/account-views';
import { countsOfGroups, postStateColumns } from '../publishing/video-status';

/** The profiles needing attention the home screen names; it counts the others. */
export const attentionShown = 10;

type ProfileRow = AccountSummaryRow & { youtubeLogin: string | null; instagramLogin: string | null; ownerLogin: string };

/**
 * The day at a glance for `user` (everyone's for an admin, as on every list): today's posts by
 * state, counted on the Kyiv day `now` falls on by their planned time, through the user's profiles
 * as the calendar counts them; the profiles whose platform access failed; and which of a new
 * account's first steps are done. Profiles are judged as the profile list judges them
 * (toAccountSummary over the same columns), posts by their state (src/lib/post-states.ts).
 */
export async function homeSummary(db: Database, user: SessionUser, now: number): Promise<HomeSummary> {
  const day = kyivDay(now);
  const { from, to } = rangeOf([day]);
  const owner = visibleOwner(user);
  const ownerValues = owner === null ? [] : [owner];
  const ownedBy = (column: string, parameter: number) => (owner === null ? 'true' : `${column} = $${parameter}`);

  const [posts, profiles, steps] = await Promise.all([
    db.sql(
      `SELECT ${postStateColumns()}, count(*)::int AS count
         FROM video_posts AS p JOIN accounts AS a ON a.id = p.account_id
        WHERE p.scheduled_at >= $1 AND p.scheduled_at < $2 AND ${ownedBy('a.user_id', 3)}
        GROUP BY 1, 2, 3`,
      [from, to, ...ownerValues],
    ),
    // Only a profile with a connection, or YouTube's link on its row, can be connected or failing.
    db.sql(
      `SELECT ${summaryColumns}, a.youtube_login AS "youtubeLogin", a.instagram_login AS "instagramLogin", u.login AS "ownerLogin"
         FROM accounts AS a JOIN users AS u ON u.id = a.user_id
        WHERE ${ownedBy('a.user_id', 1)}
          AND (a.in_youtube OR EXISTS (SELECT 1 FROM account_connections AS c WHERE c.account_id = a.id))
        ORDER BY a.id`,
      ownerValues,
    ),
    db.sql(
      `SELECT EXISTS (SELECT 1 FROM accounts WHERE ${ownedBy('user_id', 1)}) AS profile,
              EXISTS (SELECT 1 FROM photos WHERE ${ownedBy('user_id', 1)}) AS backgrounds,
              EXISTS (SELECT 1 FROM creation_requests WHERE ${ownedBy('user_id', 1)}) AS video`,
      ownerValues,
    ),
  ]);

  const { cancelled: _, ...byState } = countsOfGroups(posts.rows);
  const judged = (profiles.rows as ProfileRow[]).map((row) => ({
    row,
    summary: toAccountSummary({ account: row, ownerLogin: row.ownerLogin, groupName: null }),
  }));
  const failing = judged.filter(({ summary }) => summary.status === 'error');
  const { profile, backgrounds, video } = steps.rows[0]!;
  return {
    day,
    posts: byState,
    attention: {
      profiles: failing.slice(0, attentionShown).map(({ row, summary }) => ({
        id: summary.id,
        title: accountOption(row).title,
        user: summary.user,
        failedPlatforms: summary.failedPlatforms,
      })),
      total: failing.length,
    },
    steps: {
      profile,
      connect: judged.some(({ summary }) => platforms.some((platform) => summary[platform.fields.ticked])),
      backgrounds,
      video,
    },
  };
}
