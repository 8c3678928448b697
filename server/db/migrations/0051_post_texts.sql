-- Issue 43: a post's own words. A set may say something different on each platform, and a text's
-- variables and spintax are filled per post, so each post keeps the final text it is sent with (a
-- retry sends the same words). Null is the video's own title, description or tags, as before.
ALTER TABLE video_posts ADD COLUMN title text, ADD COLUMN description text, ADD COLUMN tags text[];
