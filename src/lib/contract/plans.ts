import { Type } from '@sinclair/typebox';
import { errorResponses, Id, Literals, Platform, Uuid } from './common';

/**
 * Issue 43.3–43.4: a plan file (one row per post) checked into a preview, saved on confirm, and
 * the scheduled and held posts of a period given back in the same columns.
 */

/**
 * What a row of a preview comes to: `new` is saved on confirm, `unchanged` is a post already
 * scheduled exactly so (an exported plan imported back), which saving leaves as it is, and
 * `refused` names why in `reason`.
 */
export const planRowStates = ['new', 'unchanged', 'refused'] as const;

export const PlanPreviewRow = Type.Object({
  /** The row's line in the file, the header being line 1. */
  line: Type.Integer({ minimum: 2 }),
  ok: Type.Boolean(),
  state: Literals(planRowStates),
  /** Why it is refused, in Ukrainian, starting with its line. */
  reason: Type.Optional(Type.String()),
  /**
   * A refused row that is a possible duplicate only (issue 43.5: within its profile's gap of
   * another post): the confirm saves it too when asked to (`allowDuplicates`).
   */
  duplicate: Type.Optional(Type.Boolean()),
  videoId: Type.Optional(Id),
  accountId: Type.Optional(Id),
  platform: Type.Optional(Platform),
  /** When it goes out (ISO): the file's date, or the slot the spread's plan found for an empty one. */
  date: Type.Optional(Type.String()),
});

export const PlanPreview = Type.Object({
  planId: Uuid,
  rows: Type.Array(PlanPreviewRow),
  /** `ok` counts the unchanged rows too; `unchanged` says how many of them saving leaves alone. */
  summary: Type.Object({
    ok: Type.Integer({ minimum: 0 }),
    refused: Type.Integer({ minimum: 0 }),
    unchanged: Type.Integer({ minimum: 0 }),
  }),
  /** When the preview may no longer be saved (ISO). */
  expiresAt: Type.String(),
});

/** A confirm's choice: with `allowDuplicates`, the rows the preview flagged as possible duplicates are saved too. */
export const PlanCommitRequest = Type.Object({ allowDuplicates: Type.Optional(Type.Boolean()) }, { additionalProperties: false });

export const PlanCommitted = Type.Object({ saved: Type.Integer({ minimum: 0 }) });

const day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });

export const PlanExportQuery = Type.Object(
  { from: day, to: day, accountId: Type.Optional(Id), groupId: Type.Optional(Id) },
  { additionalProperties: false },
);

/** A row of an exported plan: the import's columns, as the template names them by key. */
export const PlanExportRow = Type.Object({
  videoId: Id,
  idUpload: Uuid,
  profile: Type.String(),
  platform: Platform,
  /** Kyiv, `dd.mm.yyyy HH:mm`. */
  date: Type.String(),
  title: Type.String(),
  description: Type.String(),
  tags: Type.String(),
});

export const PlanExport = Type.Object({ from: day, to: day, rows: Type.Array(PlanExportRow) });

const fileBytes = Type.String({ format: 'binary', description: 'The plan: CSV (";" or "," between cells, UTF-8) or .xlsx' });

export const planSchemas = {
  preview: {
    consumes: ['multipart/form-data'],
    parts: Type.Object({ file: fileBytes }),
    response: { 200: PlanPreview, ...errorResponses },
  },
  commit: {
    params: Type.Object({ planId: Uuid }, { additionalProperties: false }),
    body: Type.Optional(PlanCommitRequest),
    response: { 201: PlanCommitted, ...errorResponses },
  },
  export: { querystring: PlanExportQuery, response: { 200: PlanExport, ...errorResponses } },
  exportCsv: { querystring: PlanExportQuery, produces: ['text/csv'], response: errorResponses },
  template: { produces: ['text/csv'], response: errorResponses },
};
