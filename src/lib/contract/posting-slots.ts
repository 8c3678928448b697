import { Type } from '@sinclair/typebox';
import { errorResponses, IdParams, Literals, Text } from './common';

/**
 * Issue 31.2: when a profile posts. `from` and `to`: hours in Kyiv wall time, `HH:MM`; `minGapMinutes`:
 * the least time between two of its posts; `days`: ISO weekdays, 1 Monday … 7 Sunday. The schema
 * pins the types; the values' rules, each with its message, are the form's (src/lib/schemas.ts
 * postingSlotsSchema), which the route checks again.
 */
export const PostingSlots = Type.Object(
  {
    // Text: no control characters or lone surrogates, refused by name like every text; a wrong time, by the form's words.
    from: Text(16),
    to: Text(16),
    minGapMinutes: Type.Integer(),
    days: Type.Array(Type.Integer(), { maxItems: 7 }),
  },
  { additionalProperties: false },
);

/** Whose slots hold: the profile's own, its group's, or the installation's (POSTING_* settings). */
export const SlotsSource = Literals(['profile', 'group', 'installation']);

/** The slots that hold for a profile or a group, and whose they are. */
export const EffectiveSlots = Type.Object({ ...PostingSlots.properties, source: SlotsSource });

const slotsAnswer = { 200: EffectiveSlots, ...errorResponses };

export const postingSlotsSchemas = {
  /** PUT /api/accounts/{id}/slots and /api/accounts-group/{id}/slots: the record's own slots from now on. */
  save: { params: IdParams, body: PostingSlots, response: slotsAnswer },
  /** DELETE of the same path: the record takes its group's or the installation's again; answers those. */
  clear: { params: IdParams, response: slotsAnswer },
};
