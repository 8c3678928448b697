-- Issue 42.2, Standard Webhooks: each delivery is a message with a globally unique id, sent as
-- `webhook-id` on every attempt so a receiver can drop a repeat (the spec's idempotency key,
-- https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md).
-- The default is evaluated per row, so the deliveries already waiting get their own id too.
-- No '.' may appear in it: the signed content is `id.timestamp.body`.
ALTER TABLE webhook_deliveries
  ADD COLUMN message_id text NOT NULL UNIQUE DEFAULT 'msg_' || replace(gen_random_uuid()::text, '-', '');
