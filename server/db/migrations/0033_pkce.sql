-- Issue 29.2: each consent flow's PKCE code_verifier (RFC 7636), kept with its state so that only
-- the flow that asked for a code can redeem it. Null for a state issued before this migration: its
-- link carried no code_challenge, so its code is redeemed without a verifier, as before.
ALTER TABLE oauth_states ADD COLUMN code_verifier text;
