-- Issue 32.4: a user's personal API tokens, for scripts. Only the SHA-256 of the secret is kept
-- (server/auth/api-tokens.ts). A revoked token keeps its row, so a script still sending it is told
-- it was revoked and is not counted as guessing tokens. last_used_at is written at most once a
-- minute per token, not on every request.
CREATE TABLE api_tokens (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name text NOT NULL CONSTRAINT api_tokens_name_length CHECK (char_length(name) <= 100),
  scope text NOT NULL CHECK (scope IN ('read', 'publish', 'admin')),
  token_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  last_used_at timestamptz,
  revoked_at timestamptz
);
CREATE INDEX api_tokens_user_idx ON api_tokens (user_id, id);

