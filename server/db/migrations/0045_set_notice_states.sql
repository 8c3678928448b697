-- Issue 39.3: the bell counts a set's posts in the words of a post's one state
-- (src/lib/post-states.ts): 'published', not the bell's own 'out'.
UPDATE notifications SET posts = jsonb_build_object('published', posts -> 'out', 'failed', posts -> 'failed', 'held', posts -> 'held')
 WHERE posts ? 'out';
