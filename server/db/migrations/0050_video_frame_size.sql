-- Issue 41: a rendered video's frame, for the platforms whose rules name one (Facebook Reels: 9:16,
-- at least 540 x 960). Every variant has been rendered at 1080 x 1920 since the first render
-- (server/media/render.ts), so the rendered ones take that frame; the rest learn theirs when rendered.
ALTER TABLE videos ADD COLUMN width integer, ADD COLUMN height integer;
UPDATE videos SET width = 1080, height = 1920 WHERE file_key IS NOT NULL;
