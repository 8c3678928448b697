-- Publishing: what a creation request is published with, and one row per (video, platform)
-- that carries the upload from scheduled to done. The row is what makes a publish job
-- idempotent: a job only acts while its token is the row's current one and the row is pending.

ALTER TABLE creation_requests
  ADD COLUMN title text,
  ADD COLUMN description text NOT NULL DEFAULT '',
  ADD COLUMN tags text[] NOT NULL DEFAULT '{}',
  ADD COLUMN in_youtube boolean NOT NULL DEFAULT false,
  ADD COLUMN in_tiktok boolean NOT NULL DEFAULT false,
  ADD COLUMN in_instagram boolean NOT NULL DEFAULT false,
  ADD COLUMN published_at timestamptz;
CREATE INDEX creation_requests_published_idx ON creation_requests (published_at DESC, id DESC)
  WHERE published_at IS NOT NULL;

-- Live Instagram publishing needs a long-lived user token from Facebook Login and the
-- professional account's id; a login and password open no Graph API.
ALTER TABLE accounts
  ADD COLUMN instagram_access_token text, -- encrypted
  ADD COLUMN instagram_user_id text;

CREATE TABLE video_posts (
  id serial PRIMARY KEY,
  video_id integer NOT NULL REFERENCES videos (id) ON DELETE CASCADE,
  platform text NOT NULL CHECK (platform IN ('youtube', 'tiktok', 'instagram')),
  -- The profile it is published through; a done post keeps its profile when the video is moved.
  account_id integer REFERENCES accounts (id) ON DELETE SET NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'done', 'error')),
  scheduled_at timestamptz NOT NULL,
  -- Names the one job allowed to act on the row; rescheduling or publishing again replaces it.
  job_token uuid,
  remote_id text,
  url text,
  -- The last failure: final when status is 'error', else the reason of the attempt being retried.
  error text,
  -- The connector's resumable state (upload session, container, publish id), see PublishProgressStore.
  progress jsonb,
  attempts integer NOT NULL DEFAULT 0,
  stats_synced_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (video_id, platform)
);
CREATE INDEX video_posts_done_idx ON video_posts (account_id) WHERE status = 'done';
