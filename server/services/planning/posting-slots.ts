import { eq, inArray } from 'drizzle-orm';
import type { EffectiveSlots, PostingSlots, SlotsSource } from '../../../src/lib/contract';
import { slotMinutes, type PostingSlotsForm } from '../../../src/lib/schemas';
import type { Database } from '../../db/connect';
import { accountGroups, accounts } from '../../db/schema';

/**
 * Posting slots (issue 31.2) as rows keep them (migration 0038): hours as minutes after Kyiv
 * midnight, the gap in minutes, ISO weekdays as bits (1 Monday … 64 Sunday). All four NULL: the
 * row takes its group's, then the installation's. A profile is in at most one group
 * (accounts.group_id), so its default has one place to come from.
 */
export interface SlotColumns {
  postingFrom: number | null;
  postingTo: number | null;
  postingGapMinutes: number | null;
  postingDays: number | null;
}

export const inheritedSlotColumns: SlotColumns = { postingFrom: null, postingTo: null, postingGapMinutes: null, postingDays: null };

const weekdays = [1, 2, 3, 4, 5, 6, 7];
const twoDigits = (value: number) => String(value).padStart(2, '0');
const clockOf = (minutes: number) => `${twoDigits(Math.floor(minutes / 60))}:${twoDigits(minutes % 60)}`;

/** The columns of slots the form schema (postingSlotsSchema) accepted. */
export function slotColumns(slots: PostingSlotsForm): SlotColumns {
  return {
    postingFrom: slotMinutes(slots.from),
    postingTo: slotMinutes(slots.to),
    postingGapMinutes: slots.minGapMinutes,
    postingDays: slots.days.reduce((bits, day) => bits | (1 << (day - 1)), 0),
  };
}

function slotsOf(columns: SlotColumns): PostingSlots | null {
  const { postingFrom, postingTo, postingGapMinutes, postingDays } = columns;
  if (postingFrom === null || postingTo === null || postingGapMinutes === null || postingDays === null) return null;
  return {
    from: clockOf(postingFrom),
    to: clockOf(postingTo),
    minGapMinutes: postingGapMinutes,
    days: weekdays.filter((day) => (postingDays & (1 << (day - 1))) !== 0),
  };
}

/** The first of `candidates` that has slots, with whose they are, else the installation's. */
function firstSlots(candidates: [SlotsSource, SlotColumns | null][], installation: PostingSlots): EffectiveSlots {
  for (const [source, columns] of candidates) {
    const slots = columns && slotsOf(columns);
    if (slots) return { ...slots, source };
  }
  return { ...installation, source: 'installation' };
}

/** The slots that hold for each of the profiles, by id; a profile not found is left out. */
export async function profileSlots(db: Database, ids: number[], installation: PostingSlots): Promise<Map<number, EffectiveSlots>> {
  if (ids.length === 0) return new Map();
  const rows = await db.orm
    .select({
      id: accounts.id,
      own: {
        postingFrom: accounts.postingFrom,
        postingTo: accounts.postingTo,
        postingGapMinutes: accounts.postingGapMinutes,
        postingDays: accounts.postingDays,
      },
      group: {
        postingFrom: accountGroups.postingFrom,
        postingTo: accountGroups.postingTo,
        postingGapMinutes: accountGroups.postingGapMinutes,
        postingDays: accountGroups.postingDays,
      },
    })
    .from(accounts)
    .leftJoin(accountGroups, eq(accountGroups.id, accounts.groupId))
    .where(inArray(accounts.id, ids));
  return new Map(
    rows.map((row) => [
      row.id,
      firstSlots(
        [
          ['profile', row.own],
          ['group', row.group],
        ],
        installation,
      ),
    ]),
  );
}

/** A group's slots, which its profiles without their own take: its own, else the installation's. */
export async function groupSlots(db: Database, id: number, installation: PostingSlots): Promise<EffectiveSlots> {
  const [row] = await db.orm
    .select({
      postingFrom: accountGroups.postingFrom,
      postingTo: accountGroups.postingTo,
      postingGapMinutes: accountGroups.postingGapMinutes,
      postingDays: accountGroups.postingDays,
    })
    .from(accountGroups)
    .where(eq(accountGroups.id, id));
  return firstSlots([['group', row ?? null]], installation);
}
