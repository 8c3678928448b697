-- Issue 39.4: why an edit of a published post's texts failed is stored as a kind with the
-- platform's own answer beside it, as a post's failure is (0043), no longer as the catalog's
-- sentence: the set's page words it where the API answers, so rewording changes no row.
ALTER TABLE video_posts
  ADD COLUMN edit_failure text CHECK (edit_failure IN (
    'rejected', 'rate_limited', 'cap_refused', 'unavailable', 'processing_failed', 'processing_timeout', 'video_not_found',
    'auth_revoked', 'grant_revoked', 'not_connected', 'app_missing', 'secrets_unreadable', 'instagram_token_missing',
    'rule_refused', 'network', 'proxy_unreachable', 'proxy_auth', 'proxy_not_public', 'timed_out', 'profile_deleted',
    'file_missing', 'gave_up', 'unknown')),
  ADD COLUMN edit_failure_detail jsonb,
  ADD CONSTRAINT video_posts_edit_failure_detail_check CHECK ((edit_failure IS NULL) = (edit_failure_detail IS NULL));

-- A sentence stored so far is kept word for word, as a failure of unknown kind (its `text`).
UPDATE video_posts SET edit_failure = 'unknown', edit_failure_detail = jsonb_build_object('text', edit_error)
 WHERE edit_error IS NOT NULL;

ALTER TABLE video_posts DROP COLUMN edit_error;
