-- The bell tells the admins that a login is being guessed from many addresses (server/auth/login-throttle.ts);
-- the notification's message holds the login.
ALTER TABLE notifications DROP CONSTRAINT notifications_kind_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_kind_check
  CHECK (kind IN ('render_done', 'render_failed', 'publish_failed', 'credentials_failed', 'credentials_ending', 'sign_in_spray'));
