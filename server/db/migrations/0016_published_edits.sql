-- Where an edit of a published set's texts stands on each post a platform lets us edit (YouTube):
-- sent ('pending'), applied ('done') or refused ('error', with edit_error). NULL: never edited.
ALTER TABLE video_posts
  ADD COLUMN edit_state text CHECK (edit_state IN ('pending', 'done', 'error')),
  ADD COLUMN edit_error text;
