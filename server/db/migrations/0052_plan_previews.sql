-- Issue 43.3: an imported plan's checked rows, kept between its preview and the operator's
-- confirm. Only the preview is stored: the posts are written, re-checked, when it is confirmed.
-- A preview is its user's alone and lapses an hour after it was made (by the app's clock); the
-- next preview of anyone deletes the lapsed ones, so no job sweeps the table.
CREATE TABLE plan_previews (
  id uuid PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  rows jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX plan_previews_expires_at ON plan_previews (expires_at);
