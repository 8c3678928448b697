-- The statistics sync reads each profile's due posts per platform (server/jobs/sync-stats.ts).
-- stats_due_at: when a post's figures are next due, set at each read from its age (fresh posts
-- often, old ones daily); NULL until the first read, which sorts first as due at once. The index
-- makes "due posts of this profile on this platform", in keyset order, one range read.
ALTER TABLE video_posts ADD COLUMN stats_due_at timestamptz;
CREATE INDEX video_posts_stats_due_idx ON video_posts (account_id, platform, (coalesce(stats_due_at, '-infinity')), id)
  WHERE status = 'done' AND remote_id IS NOT NULL;

-- Platform quota spent by statistics reads, per quota holder (a Google project, a TikTok token, an
-- Instagram account) and period (a Pacific day for YouTube, whose quotas turn over at midnight
-- Pacific Time; a minute for TikTok; an hour for Instagram). A read takes its units here first,
-- in one statement that refuses to pass the holder's limit, so concurrent syncs never overdraw.
CREATE TABLE stats_quota_ledger (
  holder text NOT NULL,
  period text NOT NULL,
  spent integer NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (holder, period)
);
CREATE INDEX stats_quota_ledger_updated_idx ON stats_quota_ledger (updated_at);
