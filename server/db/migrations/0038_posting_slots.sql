-- Issue 31.2: when a profile posts, and a group's default for its profiles. The hours are minutes
-- after midnight in Kyiv wall time, on 5-minute steps, `from` before `to` (no window runs past
-- midnight); the gap is the least time in minutes between two posts of one profile; the days are
-- ISO weekdays as bits (1 Monday, 2 Tuesday … 64 Sunday), so they are never empty or repeated. A
-- row keeps all four or none (counted by num_nulls, as a CHECK over a NULL would pass): none means
-- it takes its group's, then the installation's (POSTING_FROM, POSTING_TO, POSTING_GAP_MINUTES,
-- POSTING_DAYS). services/planning/posting-slots.ts reads them.
ALTER TABLE accounts
  ADD COLUMN posting_from smallint,
  ADD COLUMN posting_to smallint,
  ADD COLUMN posting_gap_minutes smallint,
  ADD COLUMN posting_days smallint,
  ADD CONSTRAINT accounts_posting_slots_check CHECK (
    num_nulls(posting_from, posting_to, posting_gap_minutes, posting_days) = 4
    OR (num_nulls(posting_from, posting_to, posting_gap_minutes, posting_days) = 0
        AND posting_from BETWEEN 0 AND 1435 AND posting_from % 5 = 0
        AND posting_to BETWEEN 0 AND 1435 AND posting_to % 5 = 0 AND posting_from < posting_to
        AND posting_gap_minutes BETWEEN 0 AND 1440
        AND posting_days BETWEEN 1 AND 127));

ALTER TABLE account_groups
  ADD COLUMN posting_from smallint,
  ADD COLUMN posting_to smallint,
  ADD COLUMN posting_gap_minutes smallint,
  ADD COLUMN posting_days smallint,
  ADD CONSTRAINT account_groups_posting_slots_check CHECK (
    num_nulls(posting_from, posting_to, posting_gap_minutes, posting_days) = 4
    OR (num_nulls(posting_from, posting_to, posting_gap_minutes, posting_days) = 0
        AND posting_from BETWEEN 0 AND 1435 AND posting_from % 5 = 0
        AND posting_to BETWEEN 0 AND 1435 AND posting_to % 5 = 0 AND posting_from < posting_to
        AND posting_gap_minutes BETWEEN 0 AND 1440
        AND posting_days BETWEEN 1 AND 127));
