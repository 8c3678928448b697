-- Statistics over time, the calendar's range reads, and the operator's notifications (issue 13).

-- A post's latest figures, so a sync can tell whether anything changed since its last point and
-- totals are one sum over posts. NULL until the first sync reads them.
ALTER TABLE video_posts
  ADD COLUMN views integer,
  ADD COLUMN likes integer,
  ADD COLUMN comments integer;

-- A post's figures over time: at most one row per post and clock hour (the hour's latest figures),
-- and none for a sync that read the same figures again, so a video that stopped growing stops
-- costing rows (services/statistics/stats-points.ts). No id of its own: rows are only ever read as "this
-- post's points over a time range", which the primary key answers.
CREATE TABLE stats_points (
  post_id integer NOT NULL REFERENCES video_posts (id) ON DELETE CASCADE,
  at timestamptz NOT NULL,
  views integer NOT NULL,
  likes integer NOT NULL,
  comments integer NOT NULL,
  PRIMARY KEY (post_id, at)
);

-- The calendar reads the posts of a date range: an operator's through their profiles, an admin's
-- over every profile.
CREATE INDEX video_posts_account_scheduled_idx ON video_posts (account_id, scheduled_at);
CREATE INDEX video_posts_scheduled_idx ON video_posts (scheduled_at);

-- What the bell lists: finished renders, failed publishes and failed credentials, each for the
-- owner of the request or profile it is about. Written by the triggers below, so every path that
-- records such an event (the jobs, their dead letters, a profile's save) notifies the same way.
CREATE TABLE notifications (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('render_done', 'render_failed', 'publish_failed', 'credentials_failed')),
  request_id integer REFERENCES creation_requests (id) ON DELETE CASCADE,
  account_id integer REFERENCES accounts (id) ON DELETE CASCADE,
  platform text CHECK (platform IN ('youtube', 'tiktok', 'instagram')),
  message text,
  created_at timestamptz NOT NULL DEFAULT now(),
  read_at timestamptz
);
CREATE INDEX notifications_user_idx ON notifications (user_id, id DESC);

-- The list is bounded: a user keeps their newest 50 notifications.
CREATE FUNCTION add_notification(p_user integer, p_kind text, p_request integer, p_account integer, p_platform text, p_message text)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO notifications (user_id, kind, request_id, account_id, platform, message)
    VALUES (p_user, p_kind, p_request, p_account, p_platform, left(p_message, 1000));
  DELETE FROM notifications
   WHERE user_id = p_user
     AND id < (SELECT id FROM notifications WHERE user_id = p_user ORDER BY id DESC OFFSET 49 LIMIT 1);
END $$;

CREATE FUNCTION notify_render_finished() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM add_notification(NEW.user_id, CASE WHEN NEW.status = 'success' THEN 'render_done' ELSE 'render_failed' END,
                           NEW.id, NULL, NULL, NEW.error);
  RETURN NULL;
END $$;
CREATE TRIGGER creation_requests_notify AFTER UPDATE OF status ON creation_requests
  FOR EACH ROW WHEN (OLD.status = 'loading' AND NEW.status IN ('success', 'error'))
  EXECUTE FUNCTION notify_render_finished();

CREATE FUNCTION notify_publish_failed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM add_notification(v.user_id, 'publish_failed', v.request_id, NEW.account_id, NEW.platform, NEW.error)
     FROM videos AS v WHERE v.id = NEW.video_id;
  RETURN NULL;
END $$;
CREATE TRIGGER video_posts_notify AFTER UPDATE OF status ON video_posts
  FOR EACH ROW WHEN (OLD.status <> 'error' AND NEW.status = 'error')
  EXECUTE FUNCTION notify_publish_failed();

CREATE FUNCTION notify_credentials_failed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM add_notification(NEW.user_id, 'credentials_failed', NULL, NEW.id, NULL, NEW.platform_error);
  RETURN NULL;
END $$;
CREATE TRIGGER accounts_notify AFTER UPDATE OF platform_error ON accounts
  FOR EACH ROW WHEN (NEW.platform_error IS NOT NULL AND NEW.platform_error IS DISTINCT FROM OLD.platform_error)
  EXECUTE FUNCTION notify_credentials_failed();
