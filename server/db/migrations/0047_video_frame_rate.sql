-- Issue 41: a rendered video's frames a second (its source's), beside its length (0024), for the
-- platforms whose rules name a frame rate (Facebook Reels: 24 to 60). Unknown for videos rendered before.
ALTER TABLE videos ADD COLUMN frame_rate real;
