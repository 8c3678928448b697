-- Issue 30.5: a cancelled publication is a state of its own, 'cancelled' ('Скасовано'), no longer
-- 'noactive' with the sentence 'Публікацію скасовано оператором' in publish_note; and it can be
-- undone, so the cancel keeps the posts it removed (platform, profile, date, options) to put back.
ALTER TABLE videos DROP CONSTRAINT videos_status_check;
ALTER TABLE videos ADD CONSTRAINT videos_status_check
  CHECK (status IN ('loading', 'publication', 'success', 'error', 'noactive', 'cancelled'));

-- Not null marks the publication cancelled (services/publishing/video-status.ts); an empty list has nothing to put back.
ALTER TABLE videos ADD COLUMN cancelled_posts jsonb;

-- The cancels made before this migration kept nothing: they become cancelled with nothing to put back.
-- Their note was the catalog's sentence at the time (src/lib/i18n.ts before this migration).
UPDATE videos SET status = 'cancelled', cancelled_posts = '[]'::jsonb, publish_note = NULL
 WHERE publish_note = 'Публікацію скасовано оператором'
   AND NOT EXISTS (SELECT 1 FROM video_posts WHERE video_posts.video_id = videos.id);
