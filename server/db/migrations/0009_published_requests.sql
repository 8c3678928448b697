-- A published request leaves `success` (SPEC: success means "ready to publish"), so the request
-- list stops offering 'Публікувати' and the publish route can refuse a second publish: one that
-- rewrote the set's title, tags and profiles while the uploaded videos kept the old ones.
ALTER TABLE creation_requests DROP CONSTRAINT creation_requests_status_check;
ALTER TABLE creation_requests ADD CONSTRAINT creation_requests_status_check
  CHECK (status IN ('loading', 'success', 'error', 'published'));
UPDATE creation_requests SET status = 'published' WHERE published_at IS NOT NULL AND status = 'success';
