-- Issue 40.10: a rendered video's poster also has a small copy (216 x 384, server/media/render.ts)
-- for the lists and the publish form, which showed the 1080 x 1920 poster at 72 x 128 px. Videos
-- rendered before it have none and keep showing their poster.
ALTER TABLE videos ADD COLUMN thumbnail_key text;
