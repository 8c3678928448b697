-- Background images, creation requests and their videos. accounts arrive in a later migration,
-- which adds the foreign key on videos.account_id.
CREATE TABLE photos (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  file_key text NOT NULL,
  content_type text NOT NULL,
  width integer NOT NULL,
  height integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX photos_user_idx ON photos (user_id, id DESC);

CREATE TABLE creation_requests (
  id serial PRIMARY KEY,
  id_upload uuid NOT NULL UNIQUE,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  status text NOT NULL DEFAULT 'loading' CHECK (status IN ('loading', 'success', 'error')),
  count_video integer NOT NULL,
  source_key text NOT NULL,
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX creation_requests_user_idx ON creation_requests (user_id, id DESC);

CREATE TABLE videos (
  id serial PRIMARY KEY,
  request_id integer NOT NULL REFERENCES creation_requests (id) ON DELETE CASCADE,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  account_id integer,
  position integer NOT NULL,
  status text NOT NULL DEFAULT 'loading'
    CHECK (status IN ('loading', 'publication', 'success', 'error', 'noactive')),
  file_key text,
  poster_key text,
  date timestamptz,
  error text,
  error_instagram text,
  error_tiktok text,
  url_youtube text,
  url_instagram text,
  url_tiktok text,
  views integer NOT NULL DEFAULT 0,
  likes integer NOT NULL DEFAULT 0,
  comments integer NOT NULL DEFAULT 0,
  views_instagram integer NOT NULL DEFAULT 0,
  likes_instagram integer NOT NULL DEFAULT 0,
  comments_instagram integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (request_id, position)
);
CREATE INDEX videos_user_idx ON videos (user_id, id DESC);
CREATE INDEX videos_account_idx ON videos (account_id, id DESC);
