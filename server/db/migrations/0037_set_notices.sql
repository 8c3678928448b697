-- Issue 30.9: the bell tells what became of a set's posts, one entry per set ('set_posts'), with
-- how many went out, failed and are held as counts (`posts`), in place of one 'publish_failed'
-- entry per failed post with the platform's sentence. services/publishing/set-notices.ts writes it from the
-- post lifecycle, where each such change is made. A profile's failing access is told by its code
-- (`failure_code`, 'refused' or 'revoked'), no longer by the sentence the profile shows.
ALTER TABLE notifications
  ADD COLUMN posts jsonb,
  ADD COLUMN failure_code text CHECK (failure_code IN ('refused', 'revoked'));

DROP TRIGGER video_posts_notify ON video_posts;
DROP FUNCTION notify_publish_failed();
ALTER TABLE notifications DROP CONSTRAINT notifications_kind_check;

-- Each set that had failed posts told keeps one entry, counted as the post states were read at
-- this migration (services/publishing/video-status.ts, postStateOf), unread while any of its entries was.
INSERT INTO notifications (user_id, kind, request_id, posts, created_at, read_at)
SELECT n.user_id, 'set_posts', n.request_id,
       (SELECT jsonb_build_object(
                 'out', count(*) FILTER (WHERE p.status = 'done'),
                 'failed', count(*) FILTER (WHERE p.status = 'error'),
                 'held', count(*) FILTER (WHERE p.status = 'pending' AND p.wait_kind IN ('cap', 'quota', 'reconnect')))
          FROM video_posts AS p JOIN videos AS v ON v.id = p.video_id WHERE v.request_id = n.request_id),
       max(n.created_at),
       CASE WHEN bool_and(n.read_at IS NOT NULL) THEN max(n.read_at) END
  FROM notifications AS n
 WHERE n.kind = 'publish_failed' AND n.request_id IS NOT NULL
 GROUP BY n.user_id, n.request_id
 ORDER BY max(n.id);
DELETE FROM notifications WHERE kind = 'publish_failed';
ALTER TABLE notifications ADD CONSTRAINT notifications_kind_check
  CHECK (kind IN ('render_done', 'render_failed', 'set_posts', 'credentials_failed', 'credentials_ending', 'sign_in_spray'));
UPDATE notifications AS n SET message = NULL,
       failure_code = CASE WHEN n.message LIKE 'Доступ % відкликано%' THEN 'revoked' ELSE 'refused' END
 WHERE n.kind = 'credentials_failed';

-- add_notification takes the counts and the failure code too; its trim of each user's list stays.
DROP FUNCTION add_notification(integer, text, integer, integer, text, text);
CREATE FUNCTION add_notification(p_user integer, p_kind text, p_request integer, p_account integer, p_platform text, p_message text,
                                 p_posts jsonb DEFAULT NULL, p_failure_code text DEFAULT NULL)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO notifications (user_id, kind, request_id, account_id, platform, message, posts, failure_code)
    VALUES (p_user, p_kind, p_request, p_account, p_platform, left(p_message, 1000), p_posts, p_failure_code);
  DELETE FROM notifications
   WHERE user_id = p_user
     AND id < (SELECT id FROM notifications WHERE user_id = p_user ORDER BY id DESC OFFSET 49 LIMIT 1);
END $$;

-- A profile's access is told once when it starts failing, and again only when its code changes
-- (a refused credential whose grant is then revoked); new words for the same failure tell nothing.
DROP TRIGGER account_connections_notify ON account_connections;
CREATE OR REPLACE FUNCTION notify_credentials_failed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM add_notification(a.user_id, 'credentials_failed', NULL, a.id, NEW.platform, NULL, NULL, NEW.failure_code)
     FROM accounts AS a WHERE a.id = NEW.account_id;
  RETURN NULL;
END $$;
CREATE TRIGGER account_connections_notify AFTER UPDATE OF failure_code ON account_connections
  FOR EACH ROW WHEN (NEW.failure_code IS NOT NULL AND NEW.failure_code IS DISTINCT FROM OLD.failure_code)
  EXECUTE FUNCTION notify_credentials_failed();
