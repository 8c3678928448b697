import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyTypeProviderDefault } from 'fastify';
import type { PlanPreview, PostingSlots } from '../../src/lib/contract';
import { planSchemas } from '../../src/lib/contract/plans';
import { t } from '../messages';
import { currentUser, requireUser } from '../auth/guards';
import { HttpError } from '../http-error';
import type { PlatformAccess } from '../platforms/profile-context';
import type { Platform, PostingCapSettings } from '../platforms/types';
import { visibleGroupId } from '../services/library/account-groups';
import { liveCapReader } from '../services/planning/posting-budget';
import type { SpreadSettings } from '../services/planning/spread';
import { checkPlan, type CheckedRow } from '../services/plans/plan-check';
import { planCsv, readPlanFile } from '../services/plans/plan-file';
import { commitPlan, exportPlan, linesOf, previewRows, savePreview, templateRow, type PlanExportQuery } from '../services/plans/plan-store';

/** A plan file is text of a few megabytes at most: 20 000 rows of posts with their descriptions. */
const maxPlanFileBytes = 16 * 1024 * 1024;
const dayMs = 86_400_000;

/** What a checked row comes to; a possible duplicate is refused but for another reason than the rest. */
const outcome = (row: CheckedRow) => (row.duplicate ? 'duplicate' : row.state);

/**
 * /api/plans (issue 43.3, 43.4): a plan file previewed (every row checked, nothing saved but the
 * preview), confirmed (its rows checked again and saved in one transaction), and a period's posts
 * exported in the same columns, as CSV or JSON, with the template to start from.
 */
export const planRoutes: FastifyPluginAsyncTypebox<{
  platforms: () => PlatformAccess;
  postingSlots: PostingSlots;
  postingCaps: PostingCapSettings;
}> = async (app, { platforms, postingSlots, postingCaps }) => {
  const { db, keys } = app;
  await app.register(multipart, { limits: { fileSize: maxPlanFileBytes, files: 1, fields: 5, fieldSize: 1024 } });
  app.addHook('onRequest', requireUser);

  const slotSettings = (): SpreadSettings => ({
    now: app.clock.now(),
    installationSlots: postingSlots,
    postingCaps,
    liveCapOf: liveCapReader(db, { secretsKey: keys.secretsAtRest, platforms: platforms() }),
  });

  function queueOrFail() {
    if (!app.queue) throw new Error('saving a plan needs the job queue');
    return app.queue;
  }

  app.post('/preview', { schema: planSchemas.preview }, async (request): Promise<PlanPreview> => {
    const user = currentUser(request);
    let bytes: Buffer | null = null;
    try {
      for await (const part of request.parts()) {
        if (part.type === 'file' && part.fieldname === 'file' && bytes === null) bytes = await part.toBuffer();
        else if (part.type === 'file') await part.toBuffer();
      }
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'FST_REQ_FILE_TOO_LARGE') throw new HttpError(413, t.media.fileTooLarge(maxPlanFileBytes));
      if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') throw new HttpError(400, t.plans.fileMissing);
      throw new HttpError(400, t.upload.malformed);
    }
    if (bytes === null) throw new HttpError(400, t.plans.fileMissing);
    const lines = await readPlanFile(bytes);
    const settings = slotSettings();
    const rows = await checkPlan(db, user, lines, settings);
    const { planId, expiresAt } = await savePreview(db, user.id, rows, settings.now);
    const summary = { ok: 0, refused: 0, unchanged: 0 };
    for (const row of rows) {
      if (row.state === 'refused') summary.refused += 1;
      else summary.ok += 1;
      if (row.state === 'unchanged') summary.unchanged += 1;
    }
    request.log.info({ rows: rows.length, ...summary }, 'plan previewed');
    return {
      planId,
      rows: rows.map((row) => ({
        line: row.line,
        ok: row.state !== 'refused',
        state: row.state,
        ...(row.reason === undefined ? {} : { reason: row.reason }),
        ...(row.duplicate ? { duplicate: true } : {}),
        ...(row.videoId === undefined ? {} : { videoId: row.videoId }),
        ...(row.accountId === undefined ? {} : { accountId: row.accountId }),
        ...(row.platform === undefined ? {} : { platform: row.platform }),
        ...(row.at === undefined ? {} : { date: new Date(row.at).toISOString() }),
      })),
      summary,
      expiresAt: expiresAt.toISOString(),
    };
  });

  /**
   * Saves the preview's ok rows, and its possible duplicates when the operator allows them,
   * checked again first as they now stand: a row the calendar has since made impossible (or a
   * duplicate) refuses the whole plan (409, naming it), so nothing is half saved.
   */
  app.post(
    '/:planId/commit',
    {
      schema: planSchemas.commit,
      // The body is optional: a confirm without one saves the ok rows, as it always did.
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const { planId } = request.params;
      const allowDuplicates = request.body.allowDuplicates === true;
      const settings = slotSettings();
      const previewed = (await previewRows(db, user.id, planId, settings.now)).filter(
        (row) => row.state !== 'refused' || (allowDuplicates && row.duplicate),
      );
      const rechecked = await checkPlan(db, user, linesOf(previewed), settings);
      const outcomeOf = new Map(previewed.map((row) => [row.line, outcome(row)]));
      const changed = rechecked.find((row) => outcome(row) !== outcomeOf.get(row.line));
      if (changed) throw new HttpError(409, t.plans.changedSince(changed.reason ?? ''));
      const saved = await commitPlan(db, queueOrFail(), { planId, userId: user.id }, rechecked, new Date(settings.now));
      request.log.info({ planId, saved }, 'plan saved');
      return reply.status(201).send({ saved });
    },
  );

  /** The period and the filter an export names, checked: at most a year, a group the user sees. */
  async function exportRows(request: { query: PlanExportQuery }, user: ReturnType<typeof currentUser>) {
    const { query } = request;
    const span = Date.parse(query.to) - Date.parse(query.from);
    if (Number.isNaN(span) || span < 0 || span > 366 * dayMs) throw new HttpError(400, t.plans.exportRange);
    if (query.accountId !== undefined && query.groupId !== undefined) throw new HttpError(400, t.calendar.oneFilter);
    if (query.groupId !== undefined) await visibleGroupId(db, user, query.groupId);
    return exportPlan(db, user, query);
  }

  app.get('/export', { schema: planSchemas.export }, async (request) => {
    const rows = await exportRows(request, currentUser(request));
    return {
      from: request.query.from,
      to: request.query.to,
      rows: rows.map((row) => ({ ...row, videoId: Number(row.videoId), platform: row.platform as Platform })),
    };
  });

  // CSV bytes, not JSON: only the request is typed from the schema.
  const untyped = app.withTypeProvider<FastifyTypeProviderDefault>();
  untyped.get<{ Querystring: PlanExportQuery }>('/export.csv', { schema: planSchemas.exportCsv }, async (request, reply) => {
    const rows = await exportRows(request, currentUser(request));
    return reply
      .type('text/csv; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="plan_${request.query.from}_${request.query.to}.csv"`)
      .header('Cache-Control', 'no-store')
      .send(planCsv(rows));
  });

  untyped.get('/template.csv', { schema: planSchemas.template }, async (request, reply) => {
    const row = await templateRow(db, currentUser(request), app.clock.now());
    return reply
      .type('text/csv; charset=utf-8')
      .header('Content-Disposition', 'attachment; filename="plan_template.csv"')
      .header('Cache-Control', 'no-store')
      .send(planCsv([row]));
  });
};
