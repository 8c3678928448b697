-- Lists that cost the same on every page (docs/list-plans.md).
--
-- The long lists (creation requests, published sets, a user's videos) number their rows 1..n,
-- oldest first, per owner and, where an admin sees everyone's rows, over all owners. Page N is
-- then a range of ranks read from an index, as cheap on page 2000 as on page 1, and the count is
-- one row of list_counts. Ranks are given on insert (or on publishing) under the count row's
-- lock, and closed up after deletions, which are rare and usually of recent rows. A row is
-- ranked by the statement that inserted it, so within that statement its rank is still NULL.

CREATE TABLE list_counts (
  list text NOT NULL,
  -- 0 counts every owner's rows: what an admin sees.
  owner_id integer NOT NULL,
  total integer NOT NULL,
  PRIMARY KEY (list, owner_id)
);

-- Adds delta to a list's count and returns the new count; the row stays locked until commit, so
-- ranks are handed out one transaction at a time.
CREATE FUNCTION bump_list_count(p_list text, p_owner integer, p_delta integer) RETURNS integer
LANGUAGE sql AS $$
  INSERT INTO list_counts AS c (list, owner_id, total) VALUES (p_list, p_owner, p_delta)
  ON CONFLICT (list, owner_id) DO UPDATE SET total = c.total + EXCLUDED.total
  RETURNING total
$$;

-- Renumbers the ranks at or above p_from so they are consecutive again after rows left the list.
CREATE FUNCTION close_rank_gap(p_table regclass, p_rank text, p_owner_column text, p_owner integer, p_from integer)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  scope text := CASE WHEN p_owner_column IS NULL THEN '' ELSE format('AND %I = $1', p_owner_column) END;
BEGIN
  EXECUTE format(
    'UPDATE %1$s AS t SET %2$I = s.rank
       FROM (SELECT id, $2 - 1 + row_number() OVER (ORDER BY %2$I) AS rank FROM %1$s WHERE %2$I >= $2 %3$s) AS s
      WHERE t.id = s.id AND t.%2$I <> s.rank',
    p_table, p_rank, scope)
  USING p_owner, p_from;
END $$;

ALTER TABLE creation_requests
  ADD COLUMN rank_owner integer,
  ADD COLUMN rank_all integer,
  ADD COLUMN published_rank_owner integer,
  ADD COLUMN published_rank_all integer;
ALTER TABLE videos ADD COLUMN rank_owner integer;

-- Existing rows: ranks in id order (publication order for published sets), and their counts.
UPDATE creation_requests AS r SET rank_owner = s.rank_owner, rank_all = s.rank_all
  FROM (SELECT id, row_number() OVER (PARTITION BY user_id ORDER BY id) AS rank_owner,
               row_number() OVER (ORDER BY id) AS rank_all FROM creation_requests) AS s
 WHERE r.id = s.id;
UPDATE creation_requests AS r SET published_rank_owner = s.rank_owner, published_rank_all = s.rank_all
  FROM (SELECT id, row_number() OVER (PARTITION BY user_id ORDER BY published_at, id) AS rank_owner,
               row_number() OVER (ORDER BY published_at, id) AS rank_all
          FROM creation_requests WHERE published_at IS NOT NULL) AS s
 WHERE r.id = s.id;
UPDATE videos AS v SET rank_owner = s.rank_owner
  FROM (SELECT id, row_number() OVER (PARTITION BY user_id ORDER BY id) AS rank_owner FROM videos) AS s
 WHERE v.id = s.id;
INSERT INTO list_counts (list, owner_id, total)
  SELECT 'requests', user_id, count(*) FROM creation_requests GROUP BY user_id
  UNION ALL SELECT 'requests', 0, count(*) FROM creation_requests HAVING count(*) > 0
  UNION ALL SELECT 'published', user_id, count(*) FROM creation_requests WHERE published_at IS NOT NULL GROUP BY user_id
  UNION ALL SELECT 'published', 0, count(*) FROM creation_requests WHERE published_at IS NOT NULL HAVING count(*) > 0
  UNION ALL SELECT 'videos', user_id, count(*) FROM videos GROUP BY user_id;

-- New rows are ranked once per statement: bumping a count row once per inserted row would make
-- a bulk insert rewrite that row thousands of times in one transaction.
CREATE FUNCTION rank_new_requests() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH numbered AS (
    SELECT id, user_id, published_at IS NOT NULL AS published,
           row_number() OVER (PARTITION BY user_id ORDER BY id) AS owner_n,
           row_number() OVER (ORDER BY id) AS all_n,
           row_number() OVER (PARTITION BY user_id, published_at IS NOT NULL ORDER BY published_at, id) AS published_owner_n,
           row_number() OVER (PARTITION BY published_at IS NOT NULL ORDER BY published_at, id) AS published_all_n
      FROM added),
  owners AS (
    SELECT user_id, bump_list_count('requests', user_id, count(*)::integer) - count(*) AS base,
           bump_list_count('published', user_id, (count(*) FILTER (WHERE published))::integer)
             - count(*) FILTER (WHERE published) AS published_base
      FROM numbered GROUP BY user_id),
  everyone AS (
    SELECT bump_list_count('requests', 0, count(*)::integer) - count(*) AS base,
           bump_list_count('published', 0, (count(*) FILTER (WHERE published))::integer)
             - count(*) FILTER (WHERE published) AS published_base
      FROM numbered)
  UPDATE creation_requests AS r
     SET rank_owner = o.base + n.owner_n,
         rank_all = e.base + n.all_n,
         published_rank_owner = CASE WHEN n.published THEN o.published_base + n.published_owner_n END,
         published_rank_all = CASE WHEN n.published THEN e.published_base + n.published_all_n END
    FROM numbered AS n JOIN owners AS o USING (user_id), everyone AS e
   WHERE r.id = n.id;
  RETURN NULL;
END $$;
CREATE TRIGGER creation_requests_rank AFTER INSERT ON creation_requests
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION rank_new_requests();

-- Publishing (again) puts a set on top of the published list, as ordering by published_at did.
-- Publishing is never undone, so published_at never goes back to NULL.
CREATE FUNCTION rank_published_request() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.published_at IS NULL OR NEW.published_at IS NOT DISTINCT FROM OLD.published_at THEN
    RETURN NEW;
  END IF;
  IF OLD.published_rank_owner IS NULL THEN
    NEW.published_rank_owner := bump_list_count('published', NEW.user_id, 1);
    NEW.published_rank_all := bump_list_count('published', 0, 1);
  ELSE
    NEW.published_rank_owner := bump_list_count('published', NEW.user_id, 0);
    NEW.published_rank_all := bump_list_count('published', 0, 0);
    UPDATE creation_requests SET published_rank_owner = published_rank_owner - 1
     WHERE user_id = OLD.user_id AND published_rank_owner > OLD.published_rank_owner;
    UPDATE creation_requests SET published_rank_all = published_rank_all - 1
     WHERE published_rank_all > OLD.published_rank_all;
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER creation_requests_published_rank BEFORE UPDATE OF published_at ON creation_requests
  FOR EACH ROW EXECUTE FUNCTION rank_published_request();

CREATE FUNCTION unrank_deleted_requests() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  owner record;
  lowest integer;
BEGIN
  FOR owner IN SELECT user_id, count(*) AS n, min(rank_owner) AS from_rank FROM gone GROUP BY user_id LOOP
    PERFORM bump_list_count('requests', owner.user_id, -owner.n::integer);
    PERFORM close_rank_gap('creation_requests', 'rank_owner', 'user_id', owner.user_id, owner.from_rank);
  END LOOP;
  SELECT min(rank_all) INTO lowest FROM gone;
  PERFORM bump_list_count('requests', 0, -(SELECT count(*) FROM gone)::integer);
  PERFORM close_rank_gap('creation_requests', 'rank_all', NULL, 0, lowest);

  FOR owner IN SELECT user_id, count(*) AS n, min(published_rank_owner) AS from_rank FROM gone
                WHERE published_rank_owner IS NOT NULL GROUP BY user_id LOOP
    PERFORM bump_list_count('published', owner.user_id, -owner.n::integer);
    PERFORM close_rank_gap('creation_requests', 'published_rank_owner', 'user_id', owner.user_id, owner.from_rank);
  END LOOP;
  SELECT min(published_rank_all) INTO lowest FROM gone;
  IF lowest IS NOT NULL THEN
    PERFORM bump_list_count('published', 0, -(SELECT count(*) FROM gone WHERE published_rank_all IS NOT NULL)::integer);
    PERFORM close_rank_gap('creation_requests', 'published_rank_all', NULL, 0, lowest);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER creation_requests_unrank AFTER DELETE ON creation_requests
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION unrank_deleted_requests();

CREATE FUNCTION rank_new_videos() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH numbered AS (
    SELECT id, user_id, row_number() OVER (PARTITION BY user_id ORDER BY id) AS n FROM added),
  owners AS (
    SELECT user_id, bump_list_count('videos', user_id, count(*)::integer) - count(*) AS base FROM numbered GROUP BY user_id)
  UPDATE videos AS v SET rank_owner = o.base + n.n
    FROM numbered AS n JOIN owners AS o USING (user_id)
   WHERE v.id = n.id;
  RETURN NULL;
END $$;
CREATE TRIGGER videos_rank AFTER INSERT ON videos
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION rank_new_videos();

CREATE FUNCTION unrank_deleted_videos() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  owner record;
BEGIN
  FOR owner IN SELECT user_id, count(*) AS n, min(rank_owner) AS from_rank FROM gone GROUP BY user_id LOOP
    PERFORM bump_list_count('videos', owner.user_id, -owner.n::integer);
    PERFORM close_rank_gap('videos', 'rank_owner', 'user_id', owner.user_id, owner.from_rank);
  END LOOP;
  RETURN NULL;
END $$;
CREATE TRIGGER videos_unrank AFTER DELETE ON videos
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION unrank_deleted_videos();

-- A page is a range of ranks in one index; these replace the (owner, id) indexes for paging.
CREATE INDEX creation_requests_rank_owner_idx ON creation_requests (user_id, rank_owner);
CREATE INDEX creation_requests_rank_all_idx ON creation_requests (rank_all);
CREATE INDEX creation_requests_published_rank_owner_idx ON creation_requests (user_id, published_rank_owner)
  WHERE published_rank_owner IS NOT NULL;
CREATE INDEX creation_requests_published_rank_all_idx ON creation_requests (published_rank_all)
  WHERE published_rank_all IS NOT NULL;
CREATE INDEX videos_rank_owner_idx ON videos (user_id, rank_owner);
-- A set's status asks whether any of its videos is in error or under way: index-only probes.
CREATE INDEX videos_request_status_idx ON videos (request_id, status);
