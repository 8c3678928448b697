-- Issue 21: what a waiting post waits for, when a post started, and why a video has no post on a platform.

-- Why a pending post has not gone out yet and when it is tried next: a retry's backoff, a
-- platform's Retry-After, a busy profile (and later caps and revoked grants). Cleared when the
-- post starts a run and when it ends; `error` keeps the failure that ended a post.
ALTER TABLE video_posts
  ADD COLUMN wait_reason text,
  ADD COLUMN next_attempt_at timestamptz,
  -- Set by the job that claims the post: from then on its date and profile can no longer change.
  ADD COLUMN started_at timestamptz;

-- The platforms ticked for a set that a video's profile does not have, or a cancelled
-- publication: what the operator reads for the posts that were never made.
ALTER TABLE videos ADD COLUMN publish_note text;

-- A set is 'Опубліковано' once one of its videos went out (services/lists/published-list.ts): a
-- published video is 'success' with a date, unlike a rendered one left out of the publication.
-- One index-only probe per listed set, beside videos_request_status_idx.
CREATE INDEX videos_published_idx ON videos (request_id) WHERE status = 'success' AND date IS NOT NULL;
