-- Issue 28.1: the account each platform answered with when the profile's credentials were last
-- checked (accounts.connected_as, migration 0014) lives on the platform's connection, as its
-- failure does (0031): on the one the profile reaches the platform through, the consent link,
-- else the typed credential. A column of its own rather than remote_name: a 'login' connection's
-- remote_name is the Instagram login it signs in with, a credential, not an answer. A consent
-- link's remote_name held the name answered at consent, a copy of connected_as that a later
-- check's answer (or its failure to answer) replaced: it goes, so remote_name is the typed login alone.
ALTER TABLE account_connections ADD COLUMN checked_name text;

-- A name whose platform has no connection is not kept: a YouTube link dropped with its OAuth client
-- (the name was hidden since, and named an account the profile no longer reaches), or a typed
-- credential still in the profile's columns, waiting for the startup move after the migrations
-- (moveTypedCredentials, a database upgraded across 0028 at once): the next save that leaves the
-- platform without a name asks it again (platformsToCheck).
UPDATE account_connections c SET checked_name = a.connected_as ->> c.platform
  FROM accounts a
 WHERE a.id = c.account_id AND a.connected_as ->> c.platform IS NOT NULL
   AND c.method = (SELECT m.method FROM account_connections m WHERE m.account_id = c.account_id AND m.platform = c.platform
                    ORDER BY m.method = 'oauth' DESC, m.method LIMIT 1);

UPDATE account_connections SET remote_name = NULL WHERE method = 'oauth';

ALTER TABLE accounts DROP COLUMN connected_as;
