-- A new password or another role ends every session of the user, whichever code path changes
-- them: access tokens name their session, and the guard refuses a revoked one at once.
CREATE FUNCTION end_sessions_on_credentials_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE refresh_tokens SET revoked_at = now() WHERE user_id = NEW.id AND revoked_at IS NULL;
  RETURN NEW;
END;
$$;

CREATE TRIGGER users_end_sessions
  AFTER UPDATE OF password_hash, role ON users
  FOR EACH ROW
  WHEN (OLD.password_hash IS DISTINCT FROM NEW.password_hash OR OLD.role IS DISTINCT FROM NEW.role)
  EXECUTE FUNCTION end_sessions_on_credentials_change();

-- The proxy's password is a secret like the others: sealed apart from the address, which lists
-- show. Existing rows are sealed at start-up (sealPlainProxyPasswords), which holds SECRET_KEY.
ALTER TABLE accounts ADD COLUMN proxy_password text;

-- OAuth `state`s of YouTube consent links: random, stored hashed, short-lived and spent once;
-- bound to the profile and to the user who asked for the link.
CREATE TABLE oauth_states (
  state_hash text PRIMARY KEY,
  account_id integer NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX oauth_states_expires_idx ON oauth_states (expires_at);
