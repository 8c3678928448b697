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

-- The longest texts the routes accept (src/lib/contract/limits.ts), as constraints, so the
-- database refuses what the schemas refuse. NOT VALID: older rows are kept as they are.
ALTER TABLE users ADD CONSTRAINT users_login_length CHECK (char_length(login) <= 50) NOT VALID;
ALTER TABLE accounts ADD CONSTRAINT accounts_proxy_length CHECK (char_length(proxy) <= 1000) NOT VALID;
ALTER TABLE accounts ADD CONSTRAINT accounts_comments_length CHECK (char_length(comments) <= 1000) NOT VALID;
ALTER TABLE accounts ADD CONSTRAINT accounts_youtube_client_id_length CHECK (char_length(youtube_client_id) <= 500) NOT VALID;
ALTER TABLE accounts ADD CONSTRAINT accounts_youtube_login_length CHECK (char_length(youtube_login) <= 320) NOT VALID;
ALTER TABLE accounts ADD CONSTRAINT accounts_instagram_login_length CHECK (char_length(instagram_login) <= 320) NOT VALID;
ALTER TABLE accounts ADD CONSTRAINT accounts_instagram_user_id_length CHECK (char_length(instagram_user_id) <= 100) NOT VALID;
ALTER TABLE accounts ADD CONSTRAINT accounts_description_length CHECK (char_length(description) <= 5000) NOT VALID;
ALTER TABLE accounts ADD CONSTRAINT accounts_profile_name_instagram_length CHECK (char_length(profile_name_instagram) <= 200) NOT VALID;
ALTER TABLE accounts ADD CONSTRAINT accounts_profile_description_instagram_length CHECK (char_length(profile_description_instagram) <= 2000) NOT VALID;
ALTER TABLE account_groups ADD CONSTRAINT account_groups_name_length CHECK (char_length(name) <= 200) NOT VALID;
ALTER TABLE tag_sets ADD CONSTRAINT tag_sets_name_length CHECK (char_length(name) <= 200) NOT VALID;
ALTER TABLE creation_requests ADD CONSTRAINT creation_requests_title_length CHECK (char_length(title) <= 1000) NOT VALID;
ALTER TABLE creation_requests ADD CONSTRAINT creation_requests_description_length CHECK (char_length(description) <= 5000) NOT VALID;
