-- Issue 39.5: one state per connection. A profile's platform was judged in two places that could
-- disagree: the standing failure a publish, a sync or a save left on account_connections
-- (failure_code, failure) and the last health check (profile_health). Now every path that learns
-- something writes one row per profile and platform (recordConnection in
-- server/platforms/connections.ts), and every screen, the bell and the alerts read it:
--   state:  'connected', 'attention' (it may work: a token that did not renew, a silent platform)
--           or 'down' (it cannot work until something changes);
--   kind:   why, as a code (the catalog words it, t.connection.kinds); none while connected;
--   source: which path learnt it ('publish', 'edit', 'stats', 'health', 'consent', 'reconnect' (a
--           save that checked the credentials again), 'refresh' (the token refresher));
--   detail: the platform's own words, as data, when it gave any;
--   at:     when it was learnt, on the injected clock.
-- notified_at keeps profile_health's meaning (the owner was told of this spell of 'down' before a
-- post due within a day); alert_due is the grant.revoked alert's mark, as failure_alert_due was.
CREATE TABLE connection_states (
  account_id integer NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  platform text NOT NULL CHECK (platform IN ('youtube', 'tiktok', 'instagram')),
  state text NOT NULL CHECK (state IN ('connected', 'attention', 'down')),
  kind text CHECK (kind IN ('proxy_unreachable', 'proxy_failed', 'proxy_auth', 'proxy_refused', 'not_connected', 'revoked',
                            'refused', 'token_expired', 'platform_unavailable')),
  source text NOT NULL CHECK (source IN ('publish', 'edit', 'stats', 'health', 'consent', 'reconnect', 'refresh')),
  detail text CHECK (length(detail) <= 2000),
  at timestamptz NOT NULL,
  notified_at timestamptz,
  alert_due boolean NOT NULL DEFAULT false,
  PRIMARY KEY (account_id, platform),
  CHECK ((state = 'connected') = (kind IS NULL))
);
-- The profile list's 'Проблемні' filter and home's attention list.
CREATE INDEX connection_states_problem_idx ON connection_states (account_id) WHERE state <> 'connected';
CREATE INDEX connection_states_alert_idx ON connection_states (account_id) WHERE alert_due;

INSERT INTO connection_states (account_id, platform, state, kind, source, at, notified_at)
SELECT account_id, platform, CASE state WHEN 'ok' THEN 'connected' WHEN 'warning' THEN 'attention' ELSE 'down' END,
       reason, 'health', checked_at, notified_at
  FROM profile_health;

-- A standing failure wins over the check: a check that went through would have cleared it. The
-- old rows did not say which path learnt it; most came from a publish. Their words were ours, not
-- the platform's, so no detail is kept.
INSERT INTO connection_states AS s (account_id, platform, state, kind, source, at, alert_due)
SELECT DISTINCT ON (account_id, platform) account_id, platform, 'down', failure_code, 'publish', updated_at, failure_alert_due
  FROM account_connections
 WHERE failure_code IS NOT NULL
 ORDER BY account_id, platform, method = 'oauth' DESC, method
ON CONFLICT (account_id, platform) DO UPDATE SET
  state = 'down', kind = EXCLUDED.kind, source = EXCLUDED.source, at = greatest(s.at, EXCLUDED.at), alert_due = EXCLUDED.alert_due,
  notified_at = CASE WHEN s.state = 'down' THEN s.notified_at END;

DROP TRIGGER account_connections_notify ON account_connections;
DROP TRIGGER account_connections_failure_alert ON account_connections;
DROP FUNCTION mark_failure_alert();
ALTER TABLE account_connections
  DROP CONSTRAINT account_connections_failure_check,
  DROP COLUMN failure_code,
  DROP COLUMN failure,
  DROP COLUMN failure_alert_due;
DROP TABLE profile_health;

-- The owner's bell hears of lost access ('credentials_failed') when a connection turns 'down' for
-- its credentials, whichever path learnt it; the grant.revoked alert is marked at the same moment.
-- New words for the same failure tell nothing.
CREATE OR REPLACE FUNCTION notify_credentials_failed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM add_notification(a.user_id, 'credentials_failed', NULL, a.id, NEW.platform, NULL, NULL, NEW.kind)
     FROM accounts AS a WHERE a.id = NEW.account_id;
  RETURN NULL;
END $$;
CREATE FUNCTION mark_access_alert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.alert_due := true;
  RETURN NEW;
END $$;
CREATE TRIGGER connection_states_access_lost_insert AFTER INSERT ON connection_states
  FOR EACH ROW WHEN (NEW.state = 'down' AND NEW.kind IN ('revoked', 'refused'))
  EXECUTE FUNCTION notify_credentials_failed();
CREATE TRIGGER connection_states_access_lost_update AFTER UPDATE ON connection_states
  FOR EACH ROW WHEN (NEW.state = 'down' AND NEW.kind IN ('revoked', 'refused')
                     AND (OLD.state <> 'down' OR OLD.kind IS DISTINCT FROM NEW.kind))
  EXECUTE FUNCTION notify_credentials_failed();
CREATE TRIGGER connection_states_alert_insert BEFORE INSERT ON connection_states
  FOR EACH ROW WHEN (NEW.state = 'down' AND NEW.kind IN ('revoked', 'refused'))
  EXECUTE FUNCTION mark_access_alert();
CREATE TRIGGER connection_states_alert_update BEFORE UPDATE ON connection_states
  FOR EACH ROW WHEN (NEW.state = 'down' AND NEW.kind IN ('revoked', 'refused')
                     AND (OLD.state <> 'down' OR OLD.kind IS DISTINCT FROM NEW.kind))
  EXECUTE FUNCTION mark_access_alert();
