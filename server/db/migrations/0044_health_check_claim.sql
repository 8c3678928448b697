-- Issue 39.5: a profile's health is checked by the cron's job and, now, from its page
-- (POST /api/accounts/{id}/health-check). When the check running on the profile started: another
-- check of it, whichever asks, is refused while it runs, and its claim is cleared when it ends
-- (claimHealthCheck in server/services/profiles/profile-health.ts). One left by a process that died mid-check
-- counts only while younger than a check can last.
ALTER TABLE accounts ADD COLUMN health_check_started_at timestamptz;
