import crypto from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { and, asc, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Paged, PlatformEdit, PublishedVideo, SessionUser, UploadDetail, UploadRow } from '../../src/lib/contract';
import { t } from '../../src/lib/i18n';
import { publishedEditSchema, publishSchema } from '../../src/lib/schemas';
import { addTags } from '../../src/lib/tags';
import { waitFields, type StoredWait } from '../../src/lib/post-waits';
import { accounts, creationRequests, tagSets, videos } from '../db/schema';
import { currentUser, requireUser } from '../auth/guards';
import { visibleTo } from '../auth/ownership';
import { HttpError, parseBody } from '../http-error';
import { sendPublishJob, videoColumns } from '../jobs/publish';
import { publishJobName } from '../jobs/types';
import type { RunSql } from '../db/connect';
import { sendEditJobs } from '../jobs/edit-published';
import { signMediaUrl } from '../media/signed-urls';
import type { Platform } from '../platforms/types';
import type { PlatformAccess } from '../platforms/profile-context';
import { checkPost, resolveOptions, savedDefaults, type CreatorRulesReader, type ResolvedOptions } from '../services/posting-rules';
import { accountOption, publishProfileOption, toVideoSummary } from '../services/account-views';
import { pageFromQuery } from '../services/paging';
import { publishedListPage } from '../services/published-list';
import { refreshVideoStatus, setStatusOf } from '../services/video-status';
import { futurePublishDate, platformsOf } from './publish-plan';
import { assignAccounts } from '../../src/lib/assignment';
import { uploadVideoSchemas } from '../../src/lib/contract/media';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type RequestRow = typeof creationRequests.$inferSelect;

interface PostState {
  /** The soonest wait of the video's pending posts, with the platform it is on. */
  wait: StoredWait | null;
  next_attempt_at: string | Date | null;
  planned_at: string | Date;
  changeable: boolean;
}

// The outer columns are written out with their tables: in a one-table select Drizzle renders a
// column as a bare "id", which inside these subqueries would name the subquery's own column.

/**
 * The videos a publication took in: those with posts, and those whose posts were cancelled, which
 * keep the date the publication gave them; a rendered video left out of it has neither.
 */
const inPublication = sql`(EXISTS (SELECT 1 FROM video_posts WHERE video_posts.video_id = videos.id) OR videos.date IS NOT NULL)`;

const tagsOf = (tags: string[]) => addTags([], tags.join(' '));

const everyPlatform = { isActiveYouTube: true, isActiveTikTok: true, isActiveInstagram: true };
const platformNames = (platforms: Platform[]) => platforms.map((platform) => t.platform.names[platform]).join(', ');

export const uploadVideoRoutes: FastifyPluginAsyncTypebox<{
  platforms: () => PlatformAccess;
  readCreatorRules: CreatorRulesReader;
}> = async (app, { platforms, readCreatorRules }) => {
  const { db, keys, media } = app;
  const urlOf = (fileKey: string | null) => (fileKey ? signMediaUrl(keys.mediaUrl, fileKey, media.settings.mediaUrlTtlSeconds) : null);
  app.addHook('onRequest', requireUser);

  function queueOrFail() {
    if (!app.queue) throw new Error('publishing needs the job queue');
    return app.queue;
  }

  async function requestOf(user: SessionUser, idUpload: string, published: boolean): Promise<RequestRow> {
    if (!uuidPattern.test(idUpload)) throw new HttpError(404, t.server.notFound);
    const [row] = await db.orm
      .select()
      .from(creationRequests)
      .where(
        and(
          eq(creationRequests.idUpload, idUpload),
          visibleTo(user, creationRequests.userId),
          published ? isNotNull(creationRequests.publishedAt) : undefined,
        ),
      );
    if (!row) throw new HttpError(404, t.server.notFound);
    return row;
  }

  function toPublishedVideo(row: typeof videos.$inferSelect, idUpload: string, posts: PostState | undefined): PublishedVideo {
    return {
      ...toVideoSummary(row),
      idUpload,
      url: urlOf(row.fileKey),
      posterUrl: urlOf(row.posterKey),
      errorTiktok: row.errorTiktok,
      publishNote: row.publishNote,
      ...waitFields(posts?.wait ?? null),
      nextAttemptAt: posts?.next_attempt_at ? new Date(posts.next_attempt_at).toISOString() : null,
      plannedAt: posts?.changeable ? new Date(posts.planned_at).toISOString() : null,
      changeable: posts?.changeable ?? false,
    };
  }

  /** Per video of a request, what its posts wait for: the soonest wait, and whether all still wait unstarted. */
  async function postStatesOf(requestId: number, videoId?: number): Promise<Map<number, PostState>> {
    const { rows } = await db.sql(
      `SELECT p.video_id,
              (array_agg(jsonb_build_object('platform', p.platform, 'kind', p.wait_kind, 'detail', p.wait_detail) ORDER BY p.next_attempt_at NULLS LAST)
                 FILTER (WHERE p.status = 'pending' AND p.wait_kind IS NOT NULL))[1] AS wait,
              min(p.next_attempt_at) FILTER (WHERE p.status = 'pending') AS next_attempt_at,
              min(p.scheduled_at) AS planned_at,
              bool_and(p.status = 'pending' AND p.started_at IS NULL) AS changeable
         FROM video_posts AS p JOIN videos AS v ON v.id = p.video_id
        WHERE v.request_id = $1 ${videoId === undefined ? '' : 'AND v.id = $2'}
        GROUP BY p.video_id`,
      videoId === undefined ? [requestId] : [requestId, videoId],
    );
    return new Map(rows.map((row) => [row.video_id as number, row as PostState]));
  }

  async function detail(request: RequestRow): Promise<UploadDetail> {
    const [rows, sets, [status], edits, posts, profiles] = await Promise.all([
      db.orm
        .select()
        .from(videos)
        .where(and(eq(videos.requestId, request.id), inPublication))
        .orderBy(asc(videos.position)),
      db.orm.select().from(tagSets).where(eq(tagSets.userId, request.userId)).orderBy(desc(tagSets.id)),
      db.sql(`SELECT ${setStatusOf('$1')} AS status`, [request.id]).then(({ rows }) => rows),
      editsOf(request.id),
      postStatesOf(request.id),
      db.orm.select().from(accounts).where(eq(accounts.userId, request.userId)).orderBy(asc(accounts.id)),
    ]);
    return {
      id: request.id,
      idUpload: request.idUpload,
      status: status!.status,
      title: request.title ?? '',
      description: request.description,
      tags: request.tags.join(','),
      tagProfile: sets.map(({ id, name, tags }) => ({ id, name, tags })),
      video: rows.map((row) => toPublishedVideo(row, request.idUpload, posts.get(row.id))),
      edits,
      accounts: profiles.map(publishProfileOption),
    };
  }

  /** Per platform with published videos, where the set's last edit stands; only YouTube's API edits a published post. */
  async function editsOf(requestId: number): Promise<PlatformEdit[]> {
    const { rows } = await db.sql(
      `SELECT p.platform,
              count(*) FILTER (WHERE p.edit_state = 'pending')::int AS pending,
              count(*) FILTER (WHERE p.edit_state = 'done')::int AS done,
              coalesce(array_agg(p.edit_error ORDER BY p.video_id) FILTER (WHERE p.edit_state = 'error'), '{}') AS errors
         FROM video_posts AS p JOIN videos AS v ON v.id = p.video_id
        WHERE v.request_id = $1 AND p.status = 'done'
        GROUP BY p.platform`,
      [requestId],
    );
    const order: Platform[] = ['youtube', 'tiktok', 'instagram'];
    return rows
      .map((row) => ({
        platform: row.platform as Platform,
        editable: row.platform === 'youtube',
        pending: row.pending,
        done: row.done,
        errors: row.errors,
      }))
      .sort((a, b) => order.indexOf(a.platform) - order.indexOf(b.platform));
  }

  app.get('/', { schema: uploadVideoSchemas.list }, async (request): Promise<Paged<UploadRow>> =>
    publishedListPage(db, currentUser(request), pageFromQuery(request.query), urlOf, request.query),
  );

  /** Publishes a failed video again: its failed posts go back to pending, as they were, at once. */
  app.post('/upload', { schema: uploadVideoSchemas.retry }, async (request): Promise<PublishedVideo> => {
    const user = currentUser(request);
    const { videoId, youTubeId } = request.body;
    const owner = await requestOf(user, youTubeId, true);
    const queue = queueOrFail();
    await db.transaction(async (run) => {
      const { rows: video } = await run('SELECT id FROM videos WHERE id = $1 AND request_id = $2 FOR UPDATE', [videoId, owner.id]);
      if (video.length === 0) throw new HttpError(404, t.server.notFound);
      // A retry bound to fail again is refused with the reason: the profile is gone, or its access
      // on that platform failed and has not been restored (a publish or a profile check clears it).
      const { rows: failed } = await run(
        `SELECT p.platform, a.id AS account_id, a.comments, a.youtube_login, a.instagram_login,
                EXISTS (SELECT 1 FROM account_connections AS c
                         WHERE c.account_id = p.account_id AND c.platform = p.platform AND c.failure IS NOT NULL) AS failing
           FROM video_posts AS p LEFT JOIN accounts AS a ON a.id = p.account_id
          WHERE p.video_id = $1 AND p.status = 'error'`,
        [videoId],
      );
      for (const post of failed) {
        const platform = t.platform.names[post.platform as Platform];
        if (post.account_id === null) throw new HttpError(409, t.postTruth.retryProfileDeleted);
        if (post.failing) {
          const { title } = accountOption({
            id: post.account_id,
            comments: post.comments,
            youtubeLogin: post.youtube_login,
            instagramLogin: post.instagram_login,
          });
          throw new HttpError(409, t.postTruth.retryRevoked(title, platform));
        }
      }
      const { rows: posts } = await run(
        `UPDATE video_posts SET status = 'pending', job_token = gen_random_uuid(), scheduled_at = now(), error = NULL,
           attempts = 0, started_at = NULL, wait_kind = NULL, wait_detail = NULL, next_attempt_at = NULL, updated_at = now()
         WHERE video_id = $1 AND status = 'error' RETURNING id, platform, job_token, scheduled_at`,
        [videoId],
      );
      if (posts.length === 0) throw new HttpError(409, t.publish.nothingToRetry);
      const cleared = posts.map((post) => `${videoColumns[post.platform as Platform].error} = NULL`).join(', ');
      await run(`UPDATE videos SET ${cleared} WHERE id = $1`, [videoId]);
      await refreshVideoStatus(run, videoId);
      for (const post of posts) {
        await sendPublishJob(queue, { id: post.id, token: post.job_token, scheduledAt: new Date(post.scheduled_at) }, run);
      }
    });
    request.log.info({ videoId }, 'publication retried');
    const [[row], posts] = await Promise.all([db.orm.select().from(videos).where(eq(videos.id, videoId)), postStatesOf(owner.id, videoId)]);
    return toPublishedVideo(row!, owner.idUpload, posts.get(videoId));
  });

  app.get('/:idUpload', { schema: uploadVideoSchemas.detail }, async (request) => {
    const { idUpload } = request.params;
    return detail(await requestOf(currentUser(request), idUpload, true));
  });

  /**
   * Stores the new title, description and tags for what is published from now on, and carries
   * them to the videos already on YouTube (see sendEditJobs); TikTok and Instagram cannot edit a
   * published post, which the answer's `edits` says per platform.
   */
  app.patch('/:idUpload', { schema: uploadVideoSchemas.edit }, async (request) => {
    const { idUpload } = request.params;
    const existing = await requestOf(currentUser(request), idUpload, true);
    const form = parseBody(publishedEditSchema, request.body);
    const queue = queueOrFail();
    await db.transaction(async (run) => {
      await run(`UPDATE creation_requests SET title = $2, description = $3, tags = $4, updated_at = clock_timestamp() WHERE id = $1`, [
        existing.id,
        form.title.trim(),
        form.description.trim(),
        tagsOf(form.tags),
      ]);
      await sendEditJobs(queue, run, existing.id);
    });
    return detail(await requestOf(currentUser(request), idUpload, true));
  });

  /**
   * The posts of a video that still wait unstarted, locked: the job claims a post with an UPDATE
   * of the same row (setting started_at), so an edit either runs before the claim (whose token no
   * longer matches: the stale job does nothing) or sees it started and is refused.
   */
  async function scheduledPosts(run: RunSql, videoId: number) {
    const { rows: posts } = await run(
      `SELECT id, platform, status, started_at, scheduled_at, options FROM video_posts WHERE video_id = $1 ORDER BY id FOR UPDATE`,
      [videoId],
    );
    if (posts.length === 0) throw new HttpError(409, t.postTruth.nothingScheduled);
    if (posts.some((post) => post.status !== 'pending' || post.started_at !== null)) throw new HttpError(409, t.postTruth.alreadyStarted);
    // Their queued jobs go with them; a job already fetched finds its token replaced and does nothing.
    await run(`DELETE FROM pgboss.job WHERE name = $1 AND state IN ('created', 'retry') AND (data->>'postId')::int = ANY($2::int[])`, [
      publishJobName,
      posts.map((post) => post.id),
    ]);
    return posts as { id: number; platform: Platform; scheduled_at: string | Date; options: ResolvedOptions | null }[];
  }

  async function lockedVideo(run: RunSql, requestId: number, videoId: number) {
    const { rows } = await run('SELECT id, account_id FROM videos WHERE id = $1 AND request_id = $2 FOR UPDATE', [videoId, requestId]);
    if (rows.length === 0) throw new HttpError(404, t.server.notFound);
    return rows[0] as { id: number; account_id: number | null };
  }

  /**
   * Moves a scheduled video to another date and/or profile until its publication starts. A new
   * profile gets the set's ticked platforms it has (none: 400, like the publish form); each post
   * gets a new token and job, sent in the same transaction that removed the old job.
   */
  app.patch('/:idUpload/video/:videoId', { schema: uploadVideoSchemas.reschedule }, async (request) => {
    const user = currentUser(request);
    const { idUpload, videoId } = request.params;
    const { body } = request;
    const target = await requestOf(user, idUpload, true);
    const date = futurePublishDate(body.date);
    if (!date && body.accountId === undefined) throw new HttpError(400, t.postTruth.dateRequired);
    const [profile] =
      body.accountId === undefined
        ? []
        : await db.orm
            .select()
            .from(accounts)
            .where(and(eq(accounts.id, body.accountId), eq(accounts.userId, target.userId)));
    if (body.accountId !== undefined && !profile) throw new HttpError(400, t.publish.unknownAccount);
    const saved = profile ? (await savedDefaults(db, [profile.id])).get(profile.id)! : {};
    const queue = queueOrFail();
    await db.transaction(async (run) => {
      const video = await lockedVideo(run, target.id, videoId);
      const posts = await scheduledPosts(run, videoId);
      const scheduledAt = date ?? new Date(posts[0]!.scheduled_at);
      const accountId = profile?.id ?? video.account_id;
      let platforms = posts.map((post) => post.platform);
      let note: string | null = null;
      if (profile) {
        const flags = { inYouTube: target.inYouTube, inTikTok: target.inTikTok, inInstagram: target.inInstagram };
        const ticked = platformsOf(flags, everyPlatform);
        platforms = platformsOf(flags, profile);
        const { title } = accountOption(profile);
        if (platforms.length === 0) throw new HttpError(400, t.postTruth.noPlatformFor(videoId, title, platformNames(ticked)));
        const missing = ticked.filter((platform) => !platforms.includes(platform));
        note = missing.length > 0 ? t.postTruth.platformsMissing(title, platformNames(missing)) : null;
      }
      // A moved post keeps the choices made for it; a platform it did not have takes the new profile's remembered ones.
      const kept = new Map(posts.map((post) => [post.platform, post.options]));
      const optionsOf = (platform: Platform) =>
        kept.get(platform) ?? resolveOptions(platform, undefined, saved, profile ? accountOption(profile).title : '');
      const chosen = new Map(platforms.map((platform) => [platform, optionsOf(platform)]));
      await run(`DELETE FROM video_posts WHERE video_id = $1`, [videoId]);
      for (const platform of platforms) {
        const token = crypto.randomUUID();
        const { rows } = await run(
          `INSERT INTO video_posts (video_id, platform, account_id, scheduled_at, job_token, options)
           VALUES ($1, $2, $3, $4, $5, $6::jsonb) RETURNING id`,
          [videoId, platform, accountId, scheduledAt, token, JSON.stringify(chosen.get(platform))],
        );
        await sendPublishJob(queue, { id: rows[0].id, token, scheduledAt }, run);
      }
      await run(`UPDATE videos SET account_id = $2, date = $3 WHERE id = $1`, [videoId, accountId, scheduledAt]);
      // The platforms missing are the new profile's; a date alone changes none.
      if (profile) await run(`UPDATE videos SET publish_note = $2 WHERE id = $1`, [videoId, note]);
      await refreshVideoStatus(run, videoId);
    });
    request.log.info({ videoId, date, accountId: body.accountId }, 'scheduled publication moved');
    return detail(target);
  });

  /** Cancels a scheduled video's publication before it starts: its posts and their jobs go; the video says why it has none. */
  app.delete('/:idUpload/video/:videoId/schedule', { schema: uploadVideoSchemas.cancelSchedule }, async (request) => {
    const { idUpload, videoId } = request.params;
    const target = await requestOf(currentUser(request), idUpload, true);
    await db.transaction(async (run) => {
      await lockedVideo(run, target.id, videoId);
      await scheduledPosts(run, videoId);
      await run(`DELETE FROM video_posts WHERE video_id = $1`, [videoId]);
      await run(`UPDATE videos SET publish_note = $2 WHERE id = $1`, [videoId, t.postTruth.cancelledNote]);
      await refreshVideoStatus(run, videoId);
    });
    request.log.info({ videoId }, 'scheduled publication cancelled');
    return detail(target);
  });

  app.post('/:idUpload', { schema: uploadVideoSchemas.publish }, async (request) => {
    const user = currentUser(request);
    const { idUpload } = request.params;
    const form = parseBody(publishSchema, request.body);
    const target = await requestOf(user, idUpload, false);
    if (target.status === 'published') throw new HttpError(409, t.publish.alreadyPublished);
    if (target.status !== 'success') throw new HttpError(409, t.publish.notReady);
    const queue = queueOrFail();

    const chosen = form.accounts.map((account) => account.id);
    const wanted = [...new Set([...chosen, ...form.video.flatMap((item) => (item.account ? [item.account.id] : []))])];
    const profiles = await db.orm
      .select()
      .from(accounts)
      .where(and(inArray(accounts.id, wanted), eq(accounts.userId, target.userId)));
    if (profiles.length !== wanted.length) throw new HttpError(400, t.publish.unknownAccount);
    const profileOf = new Map(profiles.map((profile) => [profile.id, profile]));

    const videoIds = [...new Set(form.video.map((item) => item.id))];
    const rows = await db.orm
      .select({ id: videos.id, status: videos.status, durationSeconds: videos.durationSeconds })
      .from(videos)
      .where(and(inArray(videos.id, videoIds), eq(videos.requestId, target.id)));
    if (rows.length !== videoIds.length) throw new HttpError(404, t.publish.unknownVideo);
    const durationOf = new Map(rows.map((row) => [row.id, row.durationSeconds]));
    const saved = await savedDefaults(db, wanted);

    const formDate = futurePublishDate(form.date);
    const ticked = platformsOf(form, everyPlatform);
    if (ticked.length === 0) throw new HttpError(400, t.postTruth.noPlatformTicked);
    const assigned = assignAccounts(
      form.video.map((item) => item.account?.id ?? null),
      chosen,
    );
    // A video whose profile has none of the ticked platforms would get no post at all: refused,
    // naming it, before anything is queued. One missing only some of them goes out where it can,
    // and says where it does not.
    const plan = form.video.map((item, index) => {
      const profile = profileOf.get(assigned[index]!)!;
      const platforms = platformsOf(form, profile);
      const { title } = accountOption(profile);
      if (platforms.length === 0) throw new HttpError(400, t.postTruth.noPlatformFor(item.id, title, platformNames(ticked)));
      const missing = ticked.filter((platform) => !platforms.includes(platform));
      return {
        videoId: item.id,
        accountId: profile.id,
        title,
        scheduledAt: futurePublishDate(item.date) ?? formDate ?? new Date(),
        platforms,
        // The post's own choices: the form's over the profile's remembered ones; a required one missing is refused here.
        options: new Map(platforms.map((platform) => [platform, resolveOptions(platform, form.options, saved.get(profile.id)!, title)])),
        note: missing.length > 0 ? t.postTruth.platformsMissing(title, platformNames(missing)) : null,
      };
    });
    // What each TikTok profile's creator allows now (privacy levels, longest video), read once per profile.
    const tiktokProfiles = [...new Set(plan.filter((item) => item.platforms.includes('tiktok')).map((item) => item.accountId))];
    const creators = new Map(
      await Promise.all(
        tiktokProfiles.map(
          async (id) => [id, (await readCreatorRules(profileOf.get(id)!, platforms(), keys.secretsAtRest, true)).rules] as const,
        ),
      ),
    );
    const texts = { title: form.title.trim(), description: form.description.trim(), tags: tagsOf(form.tags) };
    for (const item of plan) {
      for (const [platform, options] of item.options) {
        const video = { id: item.videoId, durationSeconds: durationOf.get(item.videoId) ?? null };
        checkPost(platform, options, video, texts, creators.get(item.accountId) ?? null, item.title);
      }
    }

    const sent: { id: number; token: string; scheduledAt: Date }[] = [];
    await db.transaction(async (run) => {
      // Only a request still in `success` is taken: of two publishes at once, the second finds it
      // published once the first commits, and its whole transaction is undone.
      const { rows: taken } = await run(
        `UPDATE creation_requests SET title = $2, description = $3, tags = $4, in_youtube = $5, in_tiktok = $6,
           in_instagram = $7, published_at = now(), updated_at = now(), status = 'published'
          WHERE id = $1 AND status = 'success' RETURNING id`,
        [target.id, form.title.trim(), form.description.trim(), tagsOf(form.tags), form.inYouTube, form.inTikTok, form.inInstagram],
      );
      if (taken.length === 0) throw new HttpError(409, t.publish.alreadyPublished);
      for (const item of plan) {
        // Posts still waiting for a platform the video no longer goes to are dropped; published ones stay.
        await run(`DELETE FROM video_posts WHERE video_id = $1 AND status <> 'done' AND NOT (platform = ANY($2::text[]))`, [
          item.videoId,
          item.platforms,
        ]);
        for (const platform of item.platforms) {
          const token = crypto.randomUUID();
          const { rows: upserted } = await run(
            `INSERT INTO video_posts (video_id, platform, account_id, scheduled_at, job_token, options)
             VALUES ($1, $2, $3, $4, $5, $6::jsonb)
             ON CONFLICT (video_id, platform) DO UPDATE SET account_id = EXCLUDED.account_id,
               scheduled_at = EXCLUDED.scheduled_at, job_token = EXCLUDED.job_token, status = 'pending',
               error = NULL, attempts = 0, options = EXCLUDED.options, updated_at = now()
             WHERE video_posts.status <> 'done'
             RETURNING id`,
            [item.videoId, platform, item.accountId, item.scheduledAt, token, JSON.stringify(item.options.get(platform))],
          );
          if (upserted.length > 0) {
            sent.push({ id: upserted[0].id, token, scheduledAt: item.scheduledAt });
            await run(`UPDATE videos SET ${videoColumns[platform].error} = NULL WHERE id = $1`, [item.videoId]);
          }
        }
        await run(`UPDATE videos SET account_id = $2, date = $3, publish_note = $4 WHERE id = $1`, [
          item.videoId,
          item.accountId,
          item.scheduledAt,
          item.note,
        ]);
        await refreshVideoStatus(run, item.videoId);
      }
      for (const post of sent) await sendPublishJob(queue, post, run);
    });
    request.log.info({ requestId: target.id, videos: plan.length, posts: sent.length }, 'publication scheduled');
    const [updated] = await db.orm.select().from(creationRequests).where(eq(creationRequests.id, target.id));
    return detail(updated!);
  });
};
