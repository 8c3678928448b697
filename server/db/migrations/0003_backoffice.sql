-- Profiles (accounts), their groups, and tag sets. Every row belongs to one user; deleting the
-- user deletes them (docs/deleting.md). Columns marked "encrypted" hold AES-256-GCM
-- ciphertext bound to (row id, column), never plaintext (server/auth/secrets.ts).

CREATE TABLE account_groups (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX account_groups_user_idx ON account_groups (user_id, id DESC);

CREATE TABLE accounts (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- A profile is in at most one group; deleting the group keeps its profiles.
  group_id integer REFERENCES account_groups (id) ON DELETE SET NULL,
  proxy text NOT NULL,
  ip_version text NOT NULL DEFAULT 'ipv4' CHECK (ip_version IN ('ipv4', 'ipv6')),
  comments text NOT NULL DEFAULT '',
  is_active_youtube boolean NOT NULL DEFAULT false,
  is_active_tiktok boolean NOT NULL DEFAULT false,
  is_active_instagram boolean NOT NULL DEFAULT false,
  youtube_client_id text,
  youtube_client_secret text, -- encrypted
  youtube_login text,
  youtube_password text, -- encrypted
  youtube_refresh_token text, -- encrypted; set by the OAuth callback
  in_youtube boolean NOT NULL DEFAULT false,
  instagram_login text,
  instagram_password text, -- encrypted
  tiktok_auth_str text, -- encrypted
  description text,
  title_channel text,
  url_channel text,
  url_instagram text,
  profile_name_instagram text,
  profile_description_instagram text,
  -- The last failure a platform connector reported for this profile; the status is 'error' while set.
  platform_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX accounts_user_idx ON accounts (user_id, id DESC);
CREATE INDEX accounts_group_idx ON accounts (group_id);

CREATE TABLE tag_sets (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name text NOT NULL,
  tags text[] NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX tag_sets_user_idx ON tag_sets (user_id, id DESC);

-- A video outlives the profile it was published through: it keeps its status, links and
-- statistics, and loses only the link to the profile.
ALTER TABLE videos
  ADD CONSTRAINT videos_account_fk FOREIGN KEY (account_id) REFERENCES accounts (id) ON DELETE SET NULL;
