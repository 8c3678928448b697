-- Issue 22.5: SPEC's typed credentials (the pasted TikTok string, an Instagram token, Instagram's
-- login and password) become connections too. A profile may hold a consent link and a typed
-- credential for the same platform (the link is used, the typed one stays saved, as the form
-- shows), so a connection is one per profile, platform and method. The typed secrets are moved
-- out of `accounts` at startup (moveTypedCredentials): resealing them needs SECRET_KEY.
ALTER TABLE account_connections DROP CONSTRAINT account_connections_pkey;
ALTER TABLE account_connections ADD PRIMARY KEY (account_id, platform, method);
