import crypto from 'node:crypto';
import type PgBoss from 'pg-boss';
import type { SessionUser } from '../../../src/lib/contract';
import { formatDate } from '../../../src/lib/kyiv-time';
import { platforms } from '../../../src/lib/platforms';
import { t } from '../../messages';
import type { Database } from '../../db/connect';
import { HttpError } from '../../http-error';
import { visibleOwner } from '../../auth/ownership';
import { sendPublishJobs } from '../publishing/post-lifecycle';
import { refreshVideoStatuses } from '../publishing/video-status';
import { kyivMidnight } from '../statistics/stats-range';
import { maxPlanRows, type PlanColumn } from './plan-file';
import type { CheckedRow } from './plan-check';

/**
 * An imported plan's preview kept until the operator confirms it, the confirm's one transaction,
 * and the posts of a period given back in the import's columns (issue 43.3, 43.4).
 */

/** How long a preview may be confirmed: the operator reads it and confirms, or uploads again. */
export const previewLifeMs = 60 * 60_000;

/**
 * How many previews a user keeps: a preview of 20 000 rows is megabytes, and an operator trying a
 * file again and again confirms the last one or two; the older ones go as a new one is kept.
 */
export const previewsKept = 5;

/**
 * Keeps the checked rows as the user's preview, an hour on the clock; lapsed previews of anyone go
 * at the same time, and the user's oldest beyond `previewsKept`.
 */
export async function savePreview(
  db: Database,
  userId: number,
  rows: CheckedRow[],
  now: number,
): Promise<{ planId: string; expiresAt: Date }> {
  const planId = crypto.randomUUID();
  const expiresAt = new Date(now + previewLifeMs);
  await db.transaction(async (run) => {
    await run(
      `DELETE FROM plan_previews
        WHERE expires_at <= $1
           OR id IN (SELECT id FROM plan_previews WHERE user_id = $2 ORDER BY created_at DESC OFFSET $3)`,
      [new Date(now), userId, previewsKept - 1],
    );
    await run(`INSERT INTO plan_previews (id, user_id, rows, created_at, expires_at) VALUES ($1, $2, $3::jsonb, $4, $5)`, [
      planId,
      userId,
      JSON.stringify(rows),
      new Date(now),
      expiresAt,
    ]);
  });
  return { planId, expiresAt };
}

/** The user's preview's rows; another user's is not found, a lapsed one is refused as such. */
export async function previewRows(db: Database, userId: number, planId: string, now: number): Promise<CheckedRow[]> {
  const { rows } = await db.sql(`SELECT user_id, rows, expires_at FROM plan_previews WHERE id = $1`, [planId]);
  const preview = rows[0];
  if (!preview || preview.user_id !== userId) throw new HttpError(404, t.plans.previewNotFound);
  if (new Date(preview.expires_at).getTime() <= now) throw new HttpError(409, t.plans.previewExpired);
  return (typeof preview.rows === 'string' ? JSON.parse(preview.rows) : preview.rows) as CheckedRow[];
}

/** The checked rows as a file's lines again, each naming its video, profile and time outright: what the confirm checks anew. */
export function linesOf(rows: CheckedRow[]) {
  return rows.map((row) => ({
    line: row.line,
    cells: {
      videoId: String(row.videoId),
      idUpload: '',
      profile: `#${row.accountId}`,
      platform: row.platform!,
      date: formatDate(row.at!),
      title: row.title ?? '',
      description: row.description ?? '',
      tags: row.tags?.join(' ') ?? '',
    } satisfies Record<PlanColumn, string>,
  }));
}

/**
 * Writes the plan's new posts (and the possible duplicates among `rows`, which only an operator's allowing brings) and queues their jobs in one transaction that also consumes the
 * preview, so a second confirm finds nothing to save. A post some other change put on the same
 * video and platform meanwhile undoes the whole plan (409). Each video's set counts as published,
 * ticked for the platforms it now goes to. Answers how many posts were saved.
 */
export async function commitPlan(
  db: Database,
  queue: PgBoss,
  preview: { planId: string; userId: number },
  rows: CheckedRow[],
  now: Date,
): Promise<number> {
  const fresh = rows.filter((row) => row.state === 'new' || row.duplicate);
  await db.transaction(async (run) => {
    const { rows: taken } = await run(`DELETE FROM plan_previews WHERE id = $1 AND user_id = $2 RETURNING id`, [
      preview.planId,
      preview.userId,
    ]);
    if (taken.length === 0) throw new HttpError(404, t.plans.previewNotFound);
    if (fresh.length === 0) return;
    const tokens = fresh.map(() => crypto.randomUUID());
    const { rows: inserted } = await run(
      `INSERT INTO video_posts (video_id, platform, account_id, scheduled_at, job_token, options, title, description, tags, updated_at)
       SELECT plan.video_id, plan.platform, plan.account_id, plan.scheduled_at, plan.job_token, plan.options::jsonb,
              plan.title, plan.description,
              CASE WHEN plan.tags IS NULL THEN NULL ELSE ARRAY(SELECT jsonb_array_elements_text(plan.tags::jsonb)) END, $10
         FROM unnest($1::int[], $2::text[], $3::int[], $4::timestamptz[], $5::uuid[], $6::text[], $7::text[], $8::text[], $9::text[])
              AS plan(video_id, platform, account_id, scheduled_at, job_token, options, title, description, tags)
       ON CONFLICT (video_id, platform) DO NOTHING
       RETURNING id, job_token, scheduled_at`,
      [
        fresh.map((row) => row.videoId),
        fresh.map((row) => row.platform),
        fresh.map((row) => row.accountId),
        fresh.map((row) => new Date(row.at!).toISOString()),
        tokens,
        fresh.map((row) => JSON.stringify(row.options ?? {})),
        fresh.map((row) => row.words!.title),
        fresh.map((row) => row.words!.description),
        fresh.map((row) => (row.words!.tags === null ? null : JSON.stringify(row.words!.tags))),
        now,
      ],
    );
    if (inserted.length !== fresh.length) throw new HttpError(409, t.plans.changedSince(''));

    // Each request's platforms now ticked, as a publish ticks them: from $2 on, one array of flags per platform.
    const requestIds = [...new Set(fresh.map((row) => row.requestId!))];
    const ticked = platforms.map((platform) =>
      requestIds.map((id) => fresh.some((row) => row.requestId === id && row.platform === platform.id)),
    );
    const flags = platforms
      .map((platform, index) => `${platform.columns.ticked} = r.${platform.columns.ticked} OR plan.t${index}`)
      .join(', ');
    const flagColumns = platforms.map((_, index) => `t${index}`).join(', ');
    const flagArrays = platforms.map((_, index) => `$${index + 3}::boolean[]`).join(', ');
    await run(
      `UPDATE creation_requests AS r SET status = 'published', published_at = COALESCE(r.published_at, $2), updated_at = $2, ${flags}
         FROM unnest($1::int[], ${flagArrays}) AS plan(id, ${flagColumns})
        WHERE r.id = plan.id`,
      [requestIds, now, ...ticked],
    );
    // A video's profile and date are its latest planned post's, as a publish leaves them.
    const lastOfVideo = new Map(fresh.map((row) => [row.videoId!, row]));
    await run(
      `UPDATE videos AS v SET account_id = plan.account_id, date = plan.at
         FROM unnest($1::int[], $2::int[], $3::timestamptz[]) AS plan(id, account_id, at) WHERE v.id = plan.id`,
      [
        [...lastOfVideo.keys()],
        [...lastOfVideo.values()].map((row) => row.accountId),
        [...lastOfVideo.values()].map((row) => new Date(row.at!).toISOString()),
      ],
    );
    await refreshVideoStatuses(run, [...lastOfVideo.keys()]);
    await sendPublishJobs(
      queue,
      inserted.map((post) => ({ id: post.id, token: post.job_token, at: new Date(post.scheduled_at) })),
      run,
      now,
    );
  });
  return fresh.length;
}

export interface PlanExportQuery {
  from: string;
  to: string;
  accountId?: number;
  groupId?: number;
}

/**
 * The scheduled and held posts of the Kyiv days from `from` to `to` (pending, not started), the
 * user's own or, for an admin, everyone's, in the import's columns: the words each goes out with
 * (its own, else its video's), so the file imports back as it is.
 */
export async function exportPlan(db: Database, user: SessionUser, query: PlanExportQuery): Promise<Record<PlanColumn, string>[]> {
  const { rows } = await db.sql(
    `SELECT p.video_id, r.id_upload, p.account_id, a.comments, a.youtube_login, a.instagram_login, p.platform, p.scheduled_at,
            COALESCE(p.title, r.title, '') AS title, COALESCE(p.description, r.description) AS description,
            COALESCE(p.tags, r.tags) AS tags
       FROM video_posts p
       JOIN accounts a ON a.id = p.account_id
       JOIN videos v ON v.id = p.video_id
       JOIN creation_requests r ON r.id = v.request_id
      WHERE p.status = 'pending' AND p.started_at IS NULL
        AND p.scheduled_at >= ${kyivMidnight('$1::date')} AND p.scheduled_at < ${kyivMidnight('$2::date + 1')}
        AND ($3::int IS NULL OR a.user_id = $3) AND ($4::int IS NULL OR p.account_id = $4) AND ($5::int IS NULL OR a.group_id = $5)
      ORDER BY p.scheduled_at, p.id
      LIMIT ${maxPlanRows}`,
    [query.from, query.to, visibleOwner(user), query.accountId ?? null, query.groupId ?? null],
  );
  return rows.map((row) => {
    const label = ((row.comments as string) || row.youtube_login || row.instagram_login || '').trim().split('\n')[0]!.trim();
    return {
      videoId: String(row.video_id),
      idUpload: row.id_upload,
      profile: t.accounts.optionTitle(row.account_id, label),
      platform: row.platform,
      date: formatDate(new Date(row.scheduled_at)),
      title: row.title,
      description: row.description,
      tags: (row.tags as string[]).join(' '),
    };
  });
}

/**
 * The template's example row: the user's latest ready video on their first profile that posts
 * anywhere, tomorrow at 10:00 Kyiv; placeholders when they have neither yet.
 */
export async function templateRow(db: Database, user: SessionUser, now: number): Promise<Record<PlanColumn, string>> {
  const switchedOn = platforms.map((platform) => `a.${platform.columns.switchedOn}`).join(' OR ');
  const [video, profile] = await Promise.all([
    db.sql(
      `SELECT v.id, r.id_upload FROM videos v JOIN creation_requests r ON r.id = v.request_id
        WHERE v.user_id = $1 AND v.file_key IS NOT NULL AND r.status IN ('success', 'published') ORDER BY v.id DESC LIMIT 1`,
      [user.id],
    ),
    db.sql(
      `SELECT a.id, a.comments, ${platforms.map((platform) => `a.${platform.columns.switchedOn}`).join(', ')}
         FROM accounts a WHERE a.user_id = $1 AND (${switchedOn}) ORDER BY a.id LIMIT 1`,
      [user.id],
    ),
  ]);
  const account = profile.rows[0];
  const platform = account ? platforms.find((each) => account[each.columns.switchedOn])!.id : platforms[0].id;
  const tomorrow = formatDate(now + 86_400_000).slice(0, 10);
  return {
    videoId: video.rows[0] ? String(video.rows[0].id) : '',
    idUpload: video.rows[0]?.id_upload ?? '',
    profile: account ? t.accounts.optionTitle(account.id, (account.comments as string).trim().split('\n')[0]!.trim()) : '#1',
    platform,
    date: `${tomorrow} 10:00`,
    title: t.plans.templateTitle,
    description: t.plans.templateDescription,
    tags: t.plans.templateTags,
  };
}
