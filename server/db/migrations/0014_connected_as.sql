-- The account each platform answered to when the profile's credentials were last checked, by
-- platform ('youtube', 'tiktok', 'instagram'), so operators tell apart profiles on one proxy.
ALTER TABLE accounts ADD COLUMN connected_as jsonb NOT NULL DEFAULT '{}'::jsonb;
