-- Issue 28.1: a profile's standing failure is per platform, on the connection it goes through,
-- no longer one text for three platforms whose platform was read back from a 'TikTok:' prefix.
-- failure_code says what happened ('refused': the platform refused the credentials in use;
-- 'revoked': the consent link's grant is gone); failure keeps the words the operator is shown.
-- A platform reached through several connections (a consent link and a typed credential) carries
-- it on the one in use: the link, else the typed one.
ALTER TABLE account_connections
  ADD COLUMN failure_code text CHECK (failure_code IN ('refused', 'revoked')),
  ADD COLUMN failure text,
  ADD CONSTRAINT account_connections_failure_check CHECK ((failure_code IS NULL) = (failure IS NULL));

-- The stored text names its platform ('TikTok: …', as every connector words a failure), else it
-- was about every switched-on platform (a proxy fails them all). Read once, here.
UPDATE account_connections c SET failure_code = CASE WHEN c.state = 'revoked' THEN 'revoked' ELSE 'refused' END, failure = a.platform_error
  FROM accounts a
 WHERE a.id = c.account_id AND a.platform_error IS NOT NULL
   AND c.method = (SELECT m.method FROM account_connections m WHERE m.account_id = c.account_id AND m.platform = c.platform
                    ORDER BY m.method = 'oauth' DESC, m.method LIMIT 1)
   AND CASE
         WHEN a.platform_error LIKE 'YouTube:%' THEN c.platform = 'youtube'
         WHEN a.platform_error LIKE 'TikTok:%' THEN c.platform = 'tiktok'
         WHEN a.platform_error LIKE 'Instagram:%' THEN c.platform = 'instagram'
         ELSE (c.platform = 'youtube' AND a.is_active_youtube) OR (c.platform = 'tiktok' AND a.is_active_tiktok)
              OR (c.platform = 'instagram' AND a.is_active_instagram)
       END;

-- The owner's bell hears of a failure when it starts, as it did from accounts.platform_error.
DROP TRIGGER accounts_notify ON accounts;
DROP FUNCTION notify_credentials_failed();
CREATE FUNCTION notify_credentials_failed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM add_notification(a.user_id, 'credentials_failed', NULL, a.id, NEW.platform, NEW.failure) FROM accounts AS a WHERE a.id = NEW.account_id;
  RETURN NULL;
END $$;
CREATE TRIGGER account_connections_notify AFTER UPDATE OF failure ON account_connections
  FOR EACH ROW WHEN (NEW.failure IS NOT NULL AND NEW.failure IS DISTINCT FROM OLD.failure)
  EXECUTE FUNCTION notify_credentials_failed();

ALTER TABLE accounts DROP COLUMN platform_error;
