-- Issue 43.2: a set's own words per platform (the publish's `texts`, keyed by platform), kept as
-- typed, variables and spintax unfilled. A post's final words are filled from them (video_posts.title,
-- description, tags, migration 0051); a move or a restore of a post fills them again for its new
-- profile or date. Null: every platform says the set's title, description and tags.
ALTER TABLE creation_requests ADD COLUMN platform_texts jsonb;
