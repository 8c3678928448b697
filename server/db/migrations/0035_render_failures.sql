-- Issue 29: why a render failed is stored as a kind the code decides on, no longer as the
-- catalog's sentence: 'disk_full' (a write met ENOSPC or EDQUOT), 'failed' (an attempt failed;
-- render_failure_detail keeps ffmpeg's or the store's own words), 'interrupted' (its retries ran
-- out without a reason kept, a worker that died on the last one), 'backgrounds_gone'. The words are
-- made where the API answers (src/lib/render-failures.ts). A video keeps its own, as its pass failed.
ALTER TABLE creation_requests
  ADD COLUMN render_failure text CHECK (render_failure IN ('disk_full', 'failed', 'interrupted', 'backgrounds_gone')),
  ADD COLUMN render_failure_detail text,
  ADD CONSTRAINT creation_requests_render_failure_detail_check CHECK (render_failure_detail IS NULL OR render_failure = 'failed');
ALTER TABLE videos
  ADD COLUMN render_failure text CHECK (render_failure IN ('disk_full', 'failed', 'interrupted', 'backgrounds_gone')),
  ADD COLUMN render_failure_detail text,
  ADD CONSTRAINT videos_render_failure_detail_check CHECK (render_failure_detail IS NULL OR render_failure = 'failed');

-- The sentences stored so far are read back here, once, by their wording at the time
-- (src/lib/i18n.ts before this migration); any other text of a request is a failure with its words kept.
UPDATE creation_requests SET (render_failure, render_failure_detail) = (
  CASE
    WHEN error = 'Обрані фонові зображення видалено: створіть запит знову з іншими' THEN 'backgrounds_gone'
    WHEN error = 'Створення відео перервано' THEN 'interrupted'
    ELSE 'failed' END,
  CASE
    WHEN error LIKE 'Не вдалося створити відео: %' THEN substr(error, length('Не вдалося створити відео: ') + 1)
    WHEN error IN ('Обрані фонові зображення видалено: створіть запит знову з іншими', 'Створення відео перервано',
                   'Не вдалося створити відео') THEN NULL
    ELSE error END)
WHERE error IS NOT NULL;

-- A video's error column also holds YouTube's publish failures: only a video without a file (never
-- rendered) whose text is one of the render's sentences moves.
UPDATE videos SET (render_failure, render_failure_detail, error) = (
  CASE
    WHEN error = 'Обрані фонові зображення видалено: створіть запит знову з іншими' THEN 'backgrounds_gone'
    WHEN error = 'Створення відео перервано' THEN 'interrupted'
    ELSE 'failed' END,
  CASE WHEN error LIKE 'Не вдалося створити відео: %' THEN substr(error, length('Не вдалося створити відео: ') + 1) END,
  NULL)
WHERE file_key IS NULL
  AND (error IN ('Обрані фонові зображення видалено: створіть запит знову з іншими', 'Створення відео перервано', 'Не вдалося створити відео')
       OR error LIKE 'Не вдалося створити відео: %');

ALTER TABLE creation_requests DROP COLUMN error;

-- The bell words a failed render from its request, so its notification keeps no sentence either.
CREATE OR REPLACE FUNCTION notify_render_finished() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM add_notification(NEW.user_id, CASE WHEN NEW.status = 'success' THEN 'render_done' ELSE 'render_failed' END,
                           NEW.id, NULL, NULL, NULL);
  RETURN NULL;
END $$;
UPDATE notifications SET message = NULL WHERE kind = 'render_failed';
