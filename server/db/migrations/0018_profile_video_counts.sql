-- A profile's videos are counted in list_counts ('profile_videos', the profile's id), so a page of
-- them reads its total from one row instead of counting the profile's entries of
-- videos (account_id, id DESC) on every request: thousands for a busy profile.
INSERT INTO list_counts (list, owner_id, total)
  SELECT 'profile_videos', account_id, count(*) FROM videos WHERE account_id IS NOT NULL GROUP BY account_id;

-- Inserts and deletions are counted once per statement and profile, in profile order: a bulk
-- statement then bumps each count row once, and every transaction takes the rows in one order.
CREATE FUNCTION count_added_profile_videos() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM bump_list_count('profile_videos', account_id, count(*)::integer)
     FROM added WHERE account_id IS NOT NULL GROUP BY account_id ORDER BY account_id;
  RETURN NULL;
END $$;
CREATE TRIGGER videos_profile_count_insert AFTER INSERT ON videos
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION count_added_profile_videos();

-- A profile deleted in the same statement (its user's deletion) has no count left to lower.
CREATE FUNCTION count_removed_profile_videos() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM bump_list_count('profile_videos', account_id, -count(*)::integer)
     FROM removed WHERE account_id IN (SELECT id FROM accounts) GROUP BY account_id ORDER BY account_id;
  RETURN NULL;
END $$;
CREATE TRIGGER videos_profile_count_delete AFTER DELETE ON videos
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION count_removed_profile_videos();

-- A video gets its profile when its set is published (one row per statement), and loses it when
-- the profile is deleted, which lowers no count: the profile's row is gone. Transition tables cannot be limited to one column, so this is a row
-- trigger whose WHEN skips every other update (the statistics sync rewrites videos all day).
CREATE FUNCTION count_moved_profile_video() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM bump_list_count('profile_videos', moved.account_id, moved.delta)
     FROM (VALUES (OLD.account_id, -1), (NEW.account_id, 1)) AS moved (account_id, delta)
    WHERE moved.account_id IN (SELECT id FROM accounts) ORDER BY moved.account_id;
  RETURN NULL;
END $$;
CREATE TRIGGER videos_profile_count_move AFTER UPDATE OF account_id ON videos
  FOR EACH ROW WHEN (OLD.account_id IS DISTINCT FROM NEW.account_id) EXECUTE FUNCTION count_moved_profile_video();

-- A deleted profile's count row goes with it. Its videos lose their account_id through the foreign
-- key, whose updates may come after this trigger: they skip a profile that is gone (above).
CREATE FUNCTION forget_profile_video_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM list_counts WHERE list = 'profile_videos' AND owner_id = OLD.id;
  RETURN NULL;
END $$;
CREATE TRIGGER accounts_forget_video_count AFTER DELETE ON accounts
  FOR EACH ROW EXECUTE FUNCTION forget_profile_video_count();
