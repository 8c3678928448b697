import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type {
  Paged,
  PostingSlots,
  PostReach,
  PublishedVideo,
  SessionUser,
  UploadDetail,
  UploadRow,
  VideoPost,
} from '../../src/lib/contract';
import { t } from '../messages';
import { publishedEditSchema, publishSchema, spreadSchema } from '../../src/lib/schemas';
import { addTags } from '../../src/lib/tags';
import { tickedPlatforms, ticksOf } from '../../src/lib/assignment';
import { waitFields } from '../../src/lib/post-waits';
import { currentUser, requireUser } from '../auth/guards';
import { HttpError, parseBody } from '../http-error';
import { signMediaUrl } from '../media/signed-urls';
import type { Platform, PostingCapSettings } from '../platforms/types';
import type { PlatformAccess } from '../platforms/profile-context';
import { checkPost, checkTexts, savedDefaults, type CreatorRulesReader } from '../services/publishing/posting-rules';
import { accountOption, publishProfileOption, toVideoSummary } from '../services/profiles/account-views';
import { pageFromQuery } from '../services/lists/paging';
import { publishedListPage } from '../services/lists/published-list';
import { postsOfSets, postsOfVideos } from '../services/publishing/video-status';
import { postReachOf } from '../services/statistics/reach';
import { futurePublishDate } from '../services/publishing/publish-date';
import { planPublication, platformsOf, type PlanProfile, type PlatformFlags } from '../services/publishing/publication-plan';
import { liveCapReader } from '../services/planning/posting-budget';
import { moveObstacle, spreadPublication, type SpreadSettings } from '../services/planning/spread';
import { duplicateLines, findDuplicates, type DuplicateCandidate } from '../services/planning/duplicates';
import { postWaitsOf, publishedEditsOf, unstartedPostsOf, type PostWaits } from '../services/publishing/published-set';
import {
  cancelPosts,
  editPublished,
  movePost,
  planPosts,
  replanPosts,
  restorePosts,
  retryPosts,
} from '../services/publishing/post-lifecycle';
import { uploadVideoSchemas } from '../../src/lib/contract/media';
import {
  publishedVideosOf,
  requestById,
  videoById,
  videosOfRequestAmong,
  visibleRequest,
  type RequestRow,
  type VideoRow,
} from '../services/publishing/request-rows';
import { ownerProfiles, ownerProfilesAmong, profileRowById, type ProfileRow } from '../services/profiles/profile-rows';
import { tagSetsOf } from '../services/library/tag-sets';
import { textProblems, type PlatformTexts } from '../../src/lib/post-texts';
import { planWords, templateProfile, withProposedWords } from '../services/publishing/post-words';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const tagsOf = (tags: string[]) => addTags([], tags.join(' '));

const planProfile = (profile: ProfileRow): PlanProfile => ({ ...profile, title: accountOption(profile).title });

/** A publish's `texts` as kept: trimmed, the tags as tags are kept; a platform given nothing is left out. */
function ownTexts(texts: PlatformTexts): PlatformTexts | undefined {
  const kept = Object.entries(texts).flatMap(([platform, text]) => {
    if (!text) return [];
    const own = {
      ...(text.title?.trim() ? { title: text.title.trim() } : {}),
      ...(text.description !== undefined ? { description: text.description.trim() } : {}),
      ...(text.tags?.length ? { tags: tagsOf(text.tags) } : {}),
    };
    return Object.keys(own).length > 0 ? [[platform, own] as const] : [];
  });
  return kept.length > 0 ? Object.fromEntries(kept) : undefined;
}

export const uploadVideoRoutes: FastifyPluginAsyncTypebox<{
  platforms: () => PlatformAccess;
  readCreatorRules: CreatorRulesReader;
  postingSlots: PostingSlots;
  postingCaps: PostingCapSettings;
}> = async (app, { platforms, readCreatorRules, postingSlots, postingCaps }) => {
  const { db, keys, media } = app;
  /** What the spread and a move are checked with; read per request, as the sandbox's address is known only once it listens. */
  const slotSettings = (): SpreadSettings => ({
    now: app.clock.now(),
    installationSlots: postingSlots,
    postingCaps,
    liveCapOf: liveCapReader(db, { secretsKey: keys.secretsAtRest, platforms: platforms() }),
  });
  const urlOf = (fileKey: string | null) =>
    fileKey ? signMediaUrl(keys.mediaUrl, fileKey, media.settings.mediaUrlTtlSeconds, app.clock.now()) : null;
  app.addHook('onRequest', requireUser);

  function queueOrFail() {
    if (!app.queue) throw new Error('publishing needs the job queue');
    return app.queue;
  }

  async function requestOf(user: SessionUser, idUpload: string, published: boolean): Promise<RequestRow> {
    if (!uuidPattern.test(idUpload)) throw new HttpError(404, t.server.notFound);
    const row = await visibleRequest(db, user, idUpload, published);
    if (!row) throw new HttpError(404, t.server.notFound);
    return row;
  }

  /**
   * The profiles a publish or spread body names (its rule's and each video's own), all the
   * request owner's: 400 when one is not. Both routes check alike, so neither reveals more.
   */
  async function ownersProfiles(ownerId: number, chosen: { id: number }[], items: { account?: { id: number } | null }[]) {
    const wanted = [
      ...new Set([...chosen.map((account) => account.id), ...items.flatMap((item) => (item.account ? [item.account.id] : []))]),
    ];
    if (wanted.length === 0) return [];
    const profiles = await ownerProfilesAmong(db, ownerId, wanted);
    if (profiles.length !== wanted.length) throw new HttpError(400, t.publish.unknownAccount);
    return profiles;
  }

  /** The request's videos among `videoIds`, each once: 404 when one is not the request's. */
  async function requestVideos(requestId: number, videoIds: number[]) {
    const wanted = [...new Set(videoIds)];
    if (wanted.length === 0) return [];
    const rows = await videosOfRequestAmong(db, requestId, wanted);
    if (rows.length !== wanted.length) throw new HttpError(404, t.publish.unknownVideo);
    return rows;
  }

  function toPublishedVideo(
    row: VideoRow,
    idUpload: string,
    waits: PostWaits | undefined,
    posts: VideoPost[],
    reach: PostReach[] = [],
  ): PublishedVideo {
    return {
      ...toVideoSummary(row, posts),
      idUpload,
      url: urlOf(row.fileKey),
      posterUrl: urlOf(row.posterKey),
      publishNote: row.publishNote,
      ...waitFields(waits?.wait ?? null),
      nextAttemptAt: waits?.next_attempt_at ? new Date(waits.next_attempt_at).toISOString() : null,
      plannedAt: waits?.changeable ? new Date(waits.planned_at).toISOString() : null,
      changeable: waits?.changeable ?? false,
      reach,
    };
  }

  async function detail(request: RequestRow): Promise<UploadDetail> {
    // The videos, their posts and the set's status are read at one moment, so a post that changes
    // state meanwhile shows in all of them or in none.
    const [sets, edits, profiles, { rows, setPosts, waits, reach, posts }] = await Promise.all([
      tagSetsOf(db, request.userId),
      publishedEditsOf(db, request.id),
      ownerProfiles(db, request.userId),
      db.snapshot(async (moment) => {
        const [rows, setPosts, waits, reach] = await Promise.all([
          publishedVideosOf(moment, request.id),
          postsOfSets(moment.sql, [request.id]),
          postWaitsOf(moment, request.id),
          postReachOf(moment, request.id),
        ]);
        const posts = await postsOfVideos(
          moment.sql,
          rows.map((row) => row.id),
        );
        return { rows, setPosts, waits, reach, posts };
      }),
    ]);
    const set = setPosts.get(request.id)!;
    return {
      id: request.id,
      idUpload: request.idUpload,
      publishedAt: request.publishedAt?.toISOString() ?? null,
      status: set.status,
      title: request.title ?? '',
      description: request.description,
      tags: request.tags.join(','),
      tagProfile: sets,
      video: rows.map((row) => toPublishedVideo(row, request.idUpload, waits.get(row.id), posts.get(row.id)!, reach.get(row.id))),
      edits,
      accounts: profiles.map(publishProfileOption),
      posts: set.posts,
    };
  }

  app.get('/', { schema: uploadVideoSchemas.list }, async (request): Promise<Paged<UploadRow>> =>
    publishedListPage(db, currentUser(request), pageFromQuery(request.query), urlOf, request.query),
  );

  /** Publishes a failed video again: its failed posts go back to pending, as they were, at once. */
  app.post('/upload', { schema: uploadVideoSchemas.retry }, async (request): Promise<PublishedVideo> => {
    const user = currentUser(request);
    const { videoId, youTubeId } = request.body;
    const owner = await requestOf(user, youTubeId, true);
    await retryPosts(db, queueOrFail(), owner.id, videoId, new Date(app.clock.now()));
    request.log.info({ videoId }, 'publication retried');
    const [row, waits, posts, reach] = await Promise.all([
      videoById(db, videoId),
      postWaitsOf(db, owner.id, videoId),
      postsOfVideos(db.sql, [videoId]),
      postReachOf(db, owner.id, videoId),
    ]);
    return toPublishedVideo(row!, owner.idUpload, waits.get(videoId), posts.get(videoId)!, reach.get(videoId));
  });

  app.get('/:idUpload', { schema: uploadVideoSchemas.detail }, async (request) => {
    const { idUpload } = request.params;
    return detail(await requestOf(currentUser(request), idUpload, true));
  });

  /**
   * Stores the new title, description and tags for what is published from now on, and carries
   * them to the videos already on YouTube (see editPublished); TikTok and Instagram cannot edit a
   * published post, which the answer's `edits` says per platform.
   */
  app.patch('/:idUpload', { schema: uploadVideoSchemas.edit }, async (request) => {
    const { idUpload } = request.params;
    const existing = await requestOf(currentUser(request), idUpload, true);
    const form = parseBody(publishedEditSchema, request.body);
    const texts = { title: form.title.trim(), description: form.description.trim(), tags: tagsOf(form.tags) };
    // The new texts go to the set's platforms: its YouTube videos now, its posts still to come.
    checkTexts(tickedPlatforms(existing), texts);
    await editPublished(db, queueOrFail(), existing.id, texts, new Date(app.clock.now()));
    return detail(await requestOf(currentUser(request), idUpload, true));
  });

  /**
   * Moves a scheduled video to another date and/or profile until its publication starts. A new
   * profile gets the set's ticked platforms it has (none: 400, like the publish form); each post
   * gets a new token and job, sent in the same transaction that removed the old job. With
   * `platform`, only the video's post there moves, to another date (issue 40.1).
   */
  app.patch('/:idUpload/video/:videoId', { schema: uploadVideoSchemas.reschedule }, async (request) => {
    const user = currentUser(request);
    const { idUpload, videoId } = request.params;
    const { body } = request;
    const target = await requestOf(user, idUpload, true);
    const date = futurePublishDate(body.date, app.clock.now());
    if (body.platform !== undefined) {
      if (body.accountId !== undefined) throw new HttpError(400, t.postTruth.postMovesInTime);
      if (!date) throw new HttpError(400, t.postTruth.postDateRequired);
      const refusal = await moveRefusal(target, videoId, date, undefined, target, {
        platform: body.platform,
        allowDuplicates: body.allowDuplicates === true,
      });
      if (refusal) throw new HttpError(409, refusal);
      await movePost(db, queueOrFail(), target.id, { videoId, platform: body.platform, at: date }, new Date(app.clock.now()));
      request.log.info({ videoId, date, platform: body.platform }, 'scheduled post moved');
      return detail(target);
    }
    if (!date && body.accountId === undefined) throw new HttpError(400, t.postTruth.dateRequired);
    const [profile] = body.accountId === undefined ? [] : await ownerProfilesAmong(db, target.userId, [body.accountId]);
    if (body.accountId !== undefined && !profile) throw new HttpError(400, t.publish.unknownAccount);
    const saved = profile ? (await savedDefaults(db, [profile.id])).get(profile.id)! : {};
    const flags = ticksOf(target);
    const refusal = await moveRefusal(target, videoId, date, profile, flags, { allowDuplicates: body.allowDuplicates === true });
    if (refusal) throw new HttpError(409, refusal);
    await replanPosts(
      db,
      queueOrFail(),
      target.id,
      { videoId, date, profile: profile && planProfile(profile), saved, flags },
      new Date(app.clock.now()),
    );
    request.log.info({ videoId, date, accountId: body.accountId }, 'scheduled publication moved');
    return detail(target);
  });

  /**
   * Possible duplicates of the posts a publish or a move would save (issue 43.5): 409 with each in
   * words after t.spread.duplicatesFound, which the form and the calendar recognise to offer
   * saving anyway: a publish that asks (`checkDuplicates`), a move not told to save anyway (`allowDuplicates`).
   */
  async function refuseDuplicates(
    candidates: DuplicateCandidate[],
    nameOf: (videoId: number) => string,
    titles: Map<number, string>,
    skipVideos: number[] = [],
  ) {
    const found = await findDuplicates(db, candidates, { installationSlots: postingSlots, skipVideos });
    const lines = duplicateLines(
      candidates,
      found,
      (index) => nameOf(candidates[index]!.videoId),
      (accountId) => (accountId !== null && titles.get(accountId)) || `#${accountId}`,
    );
    if (lines.length > 0) throw new HttpError(409, [t.spread.duplicatesFound, ...lines]);
  }

  /**
   * Why a move may not land where it is asked: the profile's hours, days or a cap, checked by the
   * plan the spread fills (server/services/planning/spread.ts), then (unless `allowDuplicates`) its
   * gap as a possible duplicate, which throws. A video with nothing scheduled is left to
   * replanPosts, which says so. With `platform`, the video's post there alone.
   */
  async function moveRefusal(
    target: RequestRow,
    videoId: number,
    date: Date | null,
    profile: ProfileRow | undefined,
    flags: PlatformFlags,
    { platform, allowDuplicates }: { platform?: Platform; allowDuplicates: boolean },
  ): Promise<string | null> {
    const rows = (await unstartedPostsOf(db, target.id, videoId)).filter((row) => !platform || row.platform === platform);
    if (rows.length === 0) return null;
    const account = profile ?? (await profileRowById(db, rows[0]!.account_id));
    if (!account) return null;
    const platforms = profile ? platformsOf(flags, profile) : rows.map((row) => row.platform);
    const at = (date ?? new Date(rows[0]!.scheduled_at)).getTime();
    const obstacle = await moveObstacle(db, { account, platforms, videoId, at, gap: false }, slotSettings());
    if (obstacle || allowDuplicates) return obstacle;
    const title = accountOption(account).title;
    await refuseDuplicates(
      platforms.map((each) => ({ videoId, accountId: account.id, platform: each, at })),
      () => t.spread.movedVideo(videoId),
      new Map([[account.id, title]]),
      [videoId],
    );
    return null;
  }

  /**
   * POST /api/upload-video/{idUpload}/spread: the profile and date the product proposes for each
   * video (issue 31.3). Checks what publishing would (the owner's profiles, the request's videos),
   * saves nothing.
   */
  app.post('/:idUpload/spread', { schema: uploadVideoSchemas.spread }, async (request) => {
    const user = currentUser(request);
    const { body } = request;
    const range = parseBody(spreadSchema(app.clock.now()), { from: body.from, to: body.to });
    const target = await requestOf(user, request.params.idUpload, false);
    if (target.status !== 'success') throw new HttpError(409, t.publish.notReady);
    const chosen = body.accounts ?? [];
    const profiles = await ownersProfiles(target.userId, chosen, body.video);
    const videoIds = body.video.map((item) => item.id);
    if (new Set(videoIds).size !== videoIds.length) throw new HttpError(400, t.spread.videoTwice);
    const rows = await requestVideos(target.id, videoIds);
    if (tickedPlatforms(body).length === 0) throw new HttpError(400, t.postTruth.noPlatformTicked);
    const proposal = await spreadPublication(db, { ...body, ...range, accounts: chosen }, profiles, slotSettings());
    if (body.title === undefined) return proposal;
    const common = { title: body.title.trim(), description: (body.description ?? '').trim(), tags: tagsOf(body.tags ?? []) };
    return withProposedWords(proposal, {
      common,
      texts: body.texts && ownTexts(body.texts),
      profiles: new Map(profiles.map((profile) => [profile.id, profile])),
      numbers: new Map(rows.map((row) => [row.id, row.position + 1])),
      platformsOf: (profile) => platformsOf(body, profile),
    });
  });

  /** Cancels a scheduled video's publication before it starts: its posts and their jobs go, kept for the undo below. */
  app.delete('/:idUpload/video/:videoId/schedule', { schema: uploadVideoSchemas.cancelSchedule }, async (request) => {
    const { idUpload, videoId } = request.params;
    const target = await requestOf(currentUser(request), idUpload, true);
    await cancelPosts(db, target.id, { videoId }, new Date(app.clock.now()));
    request.log.info({ videoId }, 'scheduled publication cancelled');
    return detail(target);
  });

  /** Undoes a cancel: the posts the video's latest cancel took are scheduled again as they were (see restorePosts). */
  app.post('/:idUpload/video/:videoId/schedule', { schema: uploadVideoSchemas.restoreSchedule }, async (request) => {
    const { idUpload, videoId } = request.params;
    const target = await requestOf(currentUser(request), idUpload, true);
    await restorePosts(db, queueOrFail(), target.id, { videoId }, new Date(app.clock.now()));
    request.log.info({ videoId }, 'cancelled publication restored');
    return detail(target);
  });

  /** Cancels the video's post on one platform before it starts; its posts on the others go out as planned. */
  app.delete('/:idUpload/video/:videoId/schedule/:platform', { schema: uploadVideoSchemas.cancelPostSchedule }, async (request) => {
    const { idUpload, videoId, platform } = request.params;
    const target = await requestOf(currentUser(request), idUpload, true);
    await cancelPosts(db, target.id, { videoId, platform }, new Date(app.clock.now()));
    request.log.info({ videoId, platform }, 'scheduled post cancelled');
    return detail(target);
  });

  /** Undoes the cancel of one post: that platform's post alone is scheduled again as it was. */
  app.post('/:idUpload/video/:videoId/schedule/:platform', { schema: uploadVideoSchemas.restorePostSchedule }, async (request) => {
    const { idUpload, videoId, platform } = request.params;
    const target = await requestOf(currentUser(request), idUpload, true);
    await restorePosts(db, queueOrFail(), target.id, { videoId, platform }, new Date(app.clock.now()));
    request.log.info({ videoId, platform }, 'cancelled post restored');
    return detail(target);
  });

  app.post('/:idUpload', { schema: uploadVideoSchemas.publish }, async (request) => {
    const user = currentUser(request);
    const { idUpload } = request.params;
    const now = app.clock.now();
    const form = parseBody(
      publishSchema(() => now),
      request.body,
    );
    const target = await requestOf(user, idUpload, false);
    if (target.status === 'published') throw new HttpError(409, t.publish.alreadyPublished);
    if (target.status !== 'success') throw new HttpError(409, t.publish.notReady);
    const queue = queueOrFail();

    const profiles = await ownersProfiles(target.userId, form.accounts, form.video);
    const profileOf = new Map(profiles.map((profile) => [profile.id, profile]));
    const rows = await requestVideos(
      target.id,
      form.video.map((item) => item.id),
    );
    const rowOf = new Map(rows.map((row) => [row.id, row]));
    // The form names a video by its place in the request (1, 2, …), so its refusals do too.
    const numbers = new Map(rows.map((row) => [row.id, row.position + 1]));
    const saved = await savedDefaults(db, [...profileOf.keys()]);
    const plan = planPublication(form, new Map(profiles.map((profile) => [profile.id, planProfile(profile)])), saved, now, numbers);
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
    const platformTexts = form.texts && ownTexts(form.texts);
    const names = new Map(profiles.map((profile) => [profile.id, templateProfile(profile)]));
    const problem = textProblems(texts, platformTexts, tickedPlatforms(form), {
      profiles: [...names.values()],
      numbers: [...numbers.values()],
      videoId: Math.max(...rows.map((row) => row.id)),
    })[0];
    if (problem) throw new HttpError(400, problem.message);
    const words = planWords(plan, texts, platformTexts, names, numbers);
    for (const item of plan) {
      for (const [platform, options] of item.options) {
        const row = rowOf.get(item.videoId);
        const video = {
          id: item.videoId,
          number: numbers.get(item.videoId)!,
          durationSeconds: row?.durationSeconds ?? null,
          fps: row?.fps ?? null,
          frame: row?.width && row.height ? { width: row.width, height: row.height } : null,
        };
        // Each post's own filled words, with its exact profile and publish key.
        checkPost(platform, options, video, words.get(item.videoId)!.get(platform)!, creators.get(item.accountId) ?? null, item.title);
      }
    }

    // Checked only when asked (`checkDuplicates`, which the form sends until the operator consents):
    // a SPEC client never asks and publishes as it always did. A video with its own date is a post
    // the operator scheduled by hand or took from the spread: two of one profile within its gap are
    // the slip to warn about. Videos on the set's one date (or at once) go to a profile together by
    // one choice and the caps hold the excess (server/services/planning/posting-caps.ts): they are
    // checked for repeats, and count against the dated ones.
    const ownDate = new Set(form.video.filter((item) => futurePublishDate(item.date, now)).map((item) => item.id));
    if (request.body.checkDuplicates === true) {
      await refuseDuplicates(
        plan.flatMap((item) =>
          item.platforms.map((platform) => ({
            videoId: item.videoId,
            accountId: item.accountId,
            platform,
            at: item.scheduledAt.getTime(),
            gap: ownDate.has(item.videoId),
          })),
        ),
        (videoId) => t.publish.video(numbers.get(videoId)!),
        new Map(plan.map((item) => [item.accountId, item.title])),
      );
    }

    const sent = await planPosts(db, queue, target.id, texts, form, plan, new Date(now), {
      platformTexts: platformTexts ?? null,
      posts: words,
    });
    request.log.info({ requestId: target.id, videos: plan.length, posts: sent }, 'publication scheduled');
    const updated = await requestById(db, target.id);
    return detail(updated!);
  });
};
