-- One shape for a profile's link to a platform (issue 22.5): how it was made, the tokens it holds
-- (sealed like every secret, bound to `account_connections:<account_id>:<platform>_<column>`),
-- when they end, whom they reach, and whether the platform still honours them.
CREATE TABLE account_connections (
  account_id integer NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  platform text NOT NULL CHECK (platform IN ('youtube', 'tiktok', 'instagram')),
  method text NOT NULL CHECK (method IN ('oauth', 'pasted', 'login')),
  access_token text,
  refresh_token text,
  access_expires_at timestamptz,
  refresh_expires_at timestamptz,
  remote_id text,
  remote_name text,
  state text NOT NULL DEFAULT 'connected' CHECK (state IN ('connected', 'revoked')),
  error text,
  -- When the platform's consent made the current grant, and when its owner was told it nears its
  -- end: once per grant, cleared by a new consent.
  granted_at timestamptz NOT NULL DEFAULT now(),
  ending_notified_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, platform)
);
CREATE INDEX account_connections_refresh_idx ON account_connections (access_expires_at) WHERE method = 'oauth' AND state = 'connected';

-- A consent link's `state` names the platform it connects, so a TikTok state cannot finish an Instagram callback.
ALTER TABLE oauth_states ADD COLUMN platform text NOT NULL DEFAULT 'youtube';

-- The bell tells a profile's owner ahead of time that a grant nears its end (refresh token under
-- 14 days, Instagram's long-lived token under 7).
ALTER TABLE notifications DROP CONSTRAINT notifications_kind_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_kind_check
  CHECK (kind IN ('render_done', 'render_failed', 'publish_failed', 'credentials_failed', 'credentials_ending'));
