import type { StatsSyncSettings } from '../services/statistics/quota-ledger';
import type { ReachSettings } from '../services/statistics/reach';

/** How the job engine runs render and publish jobs (see server/engine/runner.ts). */
export interface EngineSettings {
  /** JOB_POLL_SECONDS: how often an idle worker asks for due render and publish jobs. */
  pollSeconds: number;
  /** How often an idle worker asks for due background jobs (dead letters, the nightly purge, the statistics sync), which need no sub-second start. */
  backgroundPollSeconds: number;
  /** ffmpeg is CPU-bound and already uses every core: few renders at once. */
  renderConcurrency: number;
  /** Uploads wait on the network: many at once, but bounded. */
  publishConcurrency: number;
  heartbeatSeconds: number;
  /** A process silent this long is dead: its jobs are put back and its leases and scratch files removed. */
  deadAfterSeconds: number;
  /** STATS_SYNC_CONCURRENCY: profiles (per platform) one worker syncs at once; each waits on its own proxy. */
  statsConcurrency: number;
  /** How often a post's figures are read, by its age, and what the reads may spend (server/jobs/sync-stats.ts). */
  statsSync: StatsSyncSettings;
  /** When a sync marks a profile's reach as limited and a post as unseen (server/services/statistics/reach.ts). */
  reach: ReachSettings;
  /** ALERT_GROUP_SECONDS: events of one kind for one user within this long of the first make one alert (alerts/buckets.ts). */
  alertGroupSeconds: number;
}
