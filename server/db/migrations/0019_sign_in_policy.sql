-- Sign-in attempts purge the windows that have ended (server/auth/login-throttle.ts); this finds them.
CREATE INDEX login_failures_window_idx ON login_failures (window_started_at);

-- An operator who changes their own password keeps the session they changed it in: the change
-- names that session in `auth.kept_session` for its transaction. Every other session still ends,
-- whichever code path changes the password or the role.
CREATE OR REPLACE FUNCTION end_sessions_on_credentials_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE refresh_tokens SET revoked_at = now()
   WHERE user_id = NEW.id AND revoked_at IS NULL
     AND family_id IS DISTINCT FROM nullif(current_setting('auth.kept_session', true), '')::uuid;
  RETURN NEW;
END;
$$;
