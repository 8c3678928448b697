-- Issue 32.1: a profile's health, checked on a schedule before it matters (server/jobs/health-check.ts).
-- One row per profile and platform switched on: 'ok', 'warning' or 'down', why as a code (worded
-- only by the catalog, src/lib/i18n.ts), and when it was checked. notified_at: when the owner was
-- told the platform is down before a post due within a day; cleared when it is no longer down, so
-- each spell of 'down' tells once.
CREATE TABLE profile_health (
  account_id integer NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  platform text NOT NULL CHECK (platform IN ('youtube', 'tiktok', 'instagram')),
  state text NOT NULL CHECK (state IN ('ok', 'warning', 'down')),
  reason text CHECK (reason IN ('proxy_unreachable', 'proxy_failed', 'proxy_auth', 'proxy_refused', 'not_connected', 'revoked',
                                'refused', 'token_expired', 'platform_unavailable')),
  checked_at timestamptz NOT NULL,
  notified_at timestamptz,
  PRIMARY KEY (account_id, platform),
  CHECK ((state = 'ok') = (reason IS NULL))
);
-- The profile list's 'Проблемні' filter.
CREATE INDEX profile_health_problem_idx ON profile_health (account_id) WHERE state <> 'ok';

-- When the profile was last checked, whatever each platform answered: the planner's cadence
-- (hourly with a post due within a day, else daily) counts from it.
ALTER TABLE accounts ADD COLUMN health_checked_at timestamptz;

-- The bell tells an unhealthy profile ('profile_unhealthy') with the reason's code.
ALTER TABLE notifications ADD COLUMN health_reason text;
ALTER TABLE notifications DROP CONSTRAINT notifications_kind_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_kind_check
  CHECK (kind IN ('render_done', 'render_failed', 'set_posts', 'credentials_failed', 'credentials_ending', 'sign_in_spray',
                  'profile_unhealthy'));
DROP FUNCTION add_notification(integer, text, integer, integer, text, text, jsonb, text);
CREATE FUNCTION add_notification(p_user integer, p_kind text, p_request integer, p_account integer, p_platform text, p_message text,
                                 p_posts jsonb DEFAULT NULL, p_failure_code text DEFAULT NULL, p_health_reason text DEFAULT NULL)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO notifications (user_id, kind, request_id, account_id, platform, message, posts, failure_code, health_reason)
    VALUES (p_user, p_kind, p_request, p_account, p_platform, left(p_message, 1000), p_posts, p_failure_code, p_health_reason);
  DELETE FROM notifications
   WHERE user_id = p_user
     AND id < (SELECT id FROM notifications WHERE user_id = p_user ORDER BY id DESC OFFSET 49 LIMIT 1);
END $$;

-- Issue 32.2: reach shown, not guessed (server/services/statistics/reach.ts). A profile's platform is marked
-- while its last posts each drew under a share of the median views of the posts before them: the
-- row keeps those posts and the figures behind the mark, and is gone once the rule no longer holds.
CREATE TABLE profile_reach (
  account_id integer NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  platform text NOT NULL CHECK (platform IN ('youtube', 'tiktok', 'instagram')),
  post_ids integer[] NOT NULL,
  views integer[] NOT NULL,
  median_views integer NOT NULL,
  history_posts integer NOT NULL,
  marked_at timestamptz NOT NULL,
  PRIMARY KEY (account_id, platform)
);
-- A post that had no views when read at least REACH_SETTLED_HOURS after it went live: since when it is marked.
ALTER TABLE video_posts ADD COLUMN no_views_since timestamptz;
