-- Deleting or (re)publishing creation requests renumbers other requests' ranks (0006) while
-- holding the lists' count rows. Row locks came first and the count rows second, so two such
-- statements could each hold what the other waited for: a deadlock, which Postgres ends by
-- aborting one of them (answered 500). Taking the everyone-wide count rows before the statement
-- touches any row queues such statements instead. Inserts need no such lock: their new rows are
-- invisible to the others until they commit.
CREATE FUNCTION lock_request_ranks() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM list_counts WHERE owner_id = 0 AND list IN ('published', 'requests') ORDER BY list FOR UPDATE;
  RETURN NULL;
END $$;

CREATE TRIGGER creation_requests_rank_lock_delete BEFORE DELETE ON creation_requests
  FOR EACH STATEMENT EXECUTE FUNCTION lock_request_ranks();
CREATE TRIGGER creation_requests_rank_lock_publish BEFORE UPDATE OF published_at ON creation_requests
  FOR EACH STATEMENT EXECUTE FUNCTION lock_request_ranks();
