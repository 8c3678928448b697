-- Issue 41: Facebook Reels, the fourth platform. Its SPEC-style columns, named as the descriptor's
-- `columns` name them (src/lib/platforms/facebook.ts), off and empty for every profile and video so far.
ALTER TABLE accounts ADD COLUMN is_active_facebook boolean NOT NULL DEFAULT false;
ALTER TABLE creation_requests ADD COLUMN in_facebook boolean NOT NULL DEFAULT false;
ALTER TABLE videos
  ADD COLUMN url_facebook text,
  ADD COLUMN views_facebook integer NOT NULL DEFAULT 0,
  ADD COLUMN likes_facebook integer NOT NULL DEFAULT 0,
  ADD COLUMN comments_facebook integer NOT NULL DEFAULT 0;

-- Every table that names a platform takes the new one.
ALTER TABLE video_posts DROP CONSTRAINT video_posts_platform_check,
  ADD CONSTRAINT video_posts_platform_check CHECK (platform IN ('youtube', 'tiktok', 'instagram', 'facebook'));
ALTER TABLE notifications DROP CONSTRAINT notifications_platform_check,
  ADD CONSTRAINT notifications_platform_check CHECK (platform IN ('youtube', 'tiktok', 'instagram', 'facebook'));
ALTER TABLE account_connections DROP CONSTRAINT account_connections_platform_check,
  ADD CONSTRAINT account_connections_platform_check CHECK (platform IN ('youtube', 'tiktok', 'instagram', 'facebook'));
ALTER TABLE posting_defaults DROP CONSTRAINT posting_defaults_platform_check,
  ADD CONSTRAINT posting_defaults_platform_check CHECK (platform IN ('youtube', 'tiktok', 'instagram', 'facebook'));
ALTER TABLE profile_reach DROP CONSTRAINT profile_reach_platform_check,
  ADD CONSTRAINT profile_reach_platform_check CHECK (platform IN ('youtube', 'tiktok', 'instagram', 'facebook'));
ALTER TABLE connection_states DROP CONSTRAINT connection_states_platform_check,
  ADD CONSTRAINT connection_states_platform_check CHECK (platform IN ('youtube', 'tiktok', 'instagram', 'facebook'));
