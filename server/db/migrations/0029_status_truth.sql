-- Issue 28.0: one meaning for a video's status, and figures per platform.

-- 'success' meant both "rendered" and "published". A rendered video with no post is now
-- 'noactive' (services/publishing/video-status.ts writes every status a post decides); rendered is told by
-- its file.
UPDATE videos SET status = 'noactive'
 WHERE status = 'success' AND NOT EXISTS (SELECT 1 FROM video_posts WHERE video_posts.video_id = videos.id);

-- Only published videos are 'success' now, so the set lists' probe for one that went out is the
-- videos (request_id, status) index like their other probes; the partial index told a published
-- video from a rendered one by its date.
DROP INDEX videos_published_idx;

-- TikTok's figures had to share YouTube's columns. They get their own; the YouTube columns keep
-- YouTube's alone. Each post holds its latest figures (video_posts.views, …), from which both
-- are set again.
ALTER TABLE videos
  ADD COLUMN views_tiktok integer NOT NULL DEFAULT 0,
  ADD COLUMN likes_tiktok integer NOT NULL DEFAULT 0,
  ADD COLUMN comments_tiktok integer NOT NULL DEFAULT 0;

UPDATE videos SET views_tiktok = post.views, likes_tiktok = post.likes, comments_tiktok = post.comments
  FROM video_posts AS post
 WHERE post.video_id = videos.id AND post.platform = 'tiktok' AND post.views IS NOT NULL;

UPDATE videos SET views = 0, likes = 0, comments = 0
 WHERE EXISTS (SELECT 1 FROM video_posts WHERE video_posts.video_id = videos.id AND video_posts.platform = 'tiktok')
   AND NOT EXISTS (SELECT 1 FROM video_posts WHERE video_posts.video_id = videos.id AND video_posts.platform = 'youtube' AND video_posts.views IS NOT NULL);
