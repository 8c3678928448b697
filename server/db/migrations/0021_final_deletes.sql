-- A delete of a request, profile or user asks the uploads of its posts to stop before it deletes
-- anything (server/jobs/publish-stops.ts). One row per post and delete: a publish job that finds
-- one defers, a running one is aborted by its worker, which writes how it ended. No foreign key:
-- the delete removes the rows of the posts it deletes in its own transaction, and a row whose
-- delete died with its process stops counting after a few minutes (stopLifetimeSeconds).
CREATE TABLE publish_stops (
  stop_id uuid NOT NULL,
  post_id integer NOT NULL,
  requested_at timestamptz NOT NULL DEFAULT now(),
  -- Written by the job: 'stopped' (nothing will go live) or 'live' (past the point of no return).
  outcome text CHECK (outcome IN ('stopped', 'live')),
  PRIMARY KEY (stop_id, post_id)
);
CREATE INDEX publish_stops_post_idx ON publish_stops (post_id);
