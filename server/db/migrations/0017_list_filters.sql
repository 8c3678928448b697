-- Filtered lists leave the ranked path: a status filter walks its owner's rows of that status
-- newest first, and a user's published sets are walked by publication time.
CREATE INDEX creation_requests_user_status_idx ON creation_requests (user_id, status, id DESC);
CREATE INDEX creation_requests_status_idx ON creation_requests (status, id DESC);
CREATE INDEX creation_requests_user_published_idx ON creation_requests (user_id, published_at DESC, id DESC)
  WHERE published_at IS NOT NULL;
