-- Issue 22.3: every platform's own choices on every post, made by the operator, not the product.
-- A post's options as the publish form sent them (or the profile's saved defaults filled in), in
-- the platforms' field names; the publish job sends them.
ALTER TABLE video_posts ADD COLUMN options jsonb;

-- Posts queued before this migration were promised what the product then decided for everyone;
-- they keep it rather than failing for a choice nobody was asked to make.
UPDATE video_posts SET options = CASE platform
    WHEN 'tiktok' THEN '{"privacyLevel": "PUBLIC_TO_EVERYONE", "disableComment": false, "disableDuet": false, "disableStitch": false}'::jsonb
    WHEN 'youtube' THEN '{"privacyStatus": "public", "selfDeclaredMadeForKids": false, "categoryId": "22"}'::jsonb
    ELSE '{"shareToFeed": true}'::jsonb END
  WHERE status = 'pending';

-- The video's length from the render, for the platforms' length limits checked before queueing.
ALTER TABLE videos ADD COLUMN duration_seconds real;

-- A profile's remembered choices per platform: saved only by an operator's explicit "remember".
CREATE TABLE posting_defaults (
  account_id integer NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  platform text NOT NULL CHECK (platform IN ('youtube', 'tiktok', 'instagram')),
  options jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, platform)
);
