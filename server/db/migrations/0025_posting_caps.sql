-- Issue 23.2: the platforms' posting caps are planning inputs. A post counts against its profile's
-- budget from the moment it went out, so that moment is kept apart from updated_at (which later
-- statistics and edits move).
ALTER TABLE video_posts ADD COLUMN published_at timestamptz;
UPDATE video_posts SET published_at = updated_at WHERE status = 'done';

-- How many posts a profile made on a platform within a window (server/services/planning/posting-caps.ts):
-- one range scan per profile and platform.
CREATE INDEX video_posts_published_window_idx ON video_posts (account_id, platform, published_at) WHERE status = 'done';
-- What is already planned for a day on a profile and platform (GET /api/accounts/budget).
CREATE INDEX video_posts_planned_idx ON video_posts (account_id, platform, scheduled_at) WHERE status = 'pending';
