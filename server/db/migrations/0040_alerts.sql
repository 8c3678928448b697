-- Issue 32.3: alerts where the team is. An event (a post failed, was held or went out, a grant was
-- revoked, a profile turned unhealthy) is raised into its owner's bucket for that event
-- (alerts/buckets.ts); a bucket gathers what comes within ALERT_GROUP_SECONDS of its first event,
-- then becomes one Telegram message and one delivery per webhook, each with the count.

-- One open bucket per user and event: `count` events since `opened_at` (the clock's time), the data
-- of the first few kept in `items`.
CREATE TABLE alert_buckets (
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  event text NOT NULL CHECK (event IN ('post.failed', 'post.held', 'post.published', 'profile.unhealthy', 'grant.revoked')),
  opened_at timestamptz NOT NULL,
  count integer NOT NULL CHECK (count > 0),
  items jsonb NOT NULL,
  PRIMARY KEY (user_id, event)
);
CREATE INDEX alert_buckets_opened_idx ON alert_buckets (opened_at);

-- A user's Telegram chat: a one-time code while connecting, then the chat the code came from.
-- `events` are what the user asked to be told there; `digest` the morning summary. `failure`:
-- Telegram refused to deliver to the chat ('blocked': the user blocked the bot or left the chat).
CREATE TABLE telegram_links (
  user_id integer PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  chat_id bigint,
  chat_name text CHECK (length(chat_name) <= 200),
  connect_code text UNIQUE,
  code_expires_at timestamptz,
  events text[] NOT NULL DEFAULT '{post.failed,post.held,grant.revoked,profile.unhealthy}'
    CHECK (events <@ ARRAY['post.failed', 'post.held', 'grant.revoked', 'profile.unhealthy']),
  digest boolean NOT NULL DEFAULT true,
  failure text CHECK (failure IN ('blocked')),
  connected_at timestamptz,
  CHECK ((connect_code IS NULL) = (code_expires_at IS NULL))
);
CREATE INDEX telegram_links_code_idx ON telegram_links (code_expires_at) WHERE connect_code IS NOT NULL;

-- The installation's bot, by the id its token starts with: its name (getMe), and where its
-- getUpdates left off; `polling_until` lets one worker at a time read them.
CREATE TABLE telegram_bots (
  bot_id bigint PRIMARY KEY,
  username text,
  next_update_id bigint NOT NULL DEFAULT 0,
  polling_until timestamptz
);

-- A user's webhooks: where to POST which events, and the secret that signs them (sealed, bound to
-- the row: auth/secrets.ts).
CREATE TABLE webhooks (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  url text NOT NULL CONSTRAINT webhooks_url_length CHECK (length(url) <= 2000),
  events text[] NOT NULL CHECK (
    cardinality(events) > 0
    AND events <@ ARRAY['post.failed', 'post.held', 'post.published', 'profile.unhealthy', 'grant.revoked']),
  secret text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhooks_user_idx ON webhooks (user_id);

-- Each delivery: the body as first sent (every attempt signs the same bytes), and the last answer.
-- `pending` deliveries go at `next_attempt_at` (the clock's time); `last_error` is a code the
-- screen words: 'status' (an answer outside 2xx, in last_status), 'timeout', 'network', 'address'
-- (the outbound policy refused where the name led).
CREATE TABLE webhook_deliveries (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  webhook_id integer NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  event text NOT NULL,
  body text NOT NULL,
  state text NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  last_attempt_at timestamptz,
  last_status integer,
  last_answer text,
  last_error text CHECK (last_error IN ('status', 'timeout', 'network', 'address')),
  created_at timestamptz NOT NULL,
  delivered_at timestamptz,
  CHECK ((state = 'pending') = (next_attempt_at IS NOT NULL))
);
CREATE INDEX webhook_deliveries_webhook_idx ON webhook_deliveries (webhook_id, id DESC);
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE state = 'pending';

-- A profile's access to a platform failing (a grant revoked, credentials refused) is raised as
-- grant.revoked once per failure: the trigger marks the connection, and the alert ticker raises
-- and clears the mark in one transaction (jobs/alerts.ts). Its failure is recorded from many
-- places, some below the services that raise alerts; the mark is where they all meet.
ALTER TABLE account_connections ADD COLUMN failure_alert_due boolean NOT NULL DEFAULT false;
CREATE FUNCTION mark_failure_alert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.failure_alert_due := true;
  RETURN NEW;
END $$;
CREATE TRIGGER account_connections_failure_alert BEFORE UPDATE OF failure_code ON account_connections
  FOR EACH ROW WHEN (NEW.failure_code IS NOT NULL AND NEW.failure_code IS DISTINCT FROM OLD.failure_code)
  EXECUTE FUNCTION mark_failure_alert();
CREATE INDEX account_connections_failure_alert_idx ON account_connections (account_id) WHERE failure_alert_due;
