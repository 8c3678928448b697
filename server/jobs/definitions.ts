import { purgeExpiredRefreshTokens } from '../auth/tokens';
import { markRenderFailed, renderFailedJobName, renderJobName, renderRequest, type RenderJobData } from './render';
import { markPublishFailed, markPublishRetried, publishFailedJobName, publishPost } from './publish';
import {
  editPublishedJobName,
  publishJobName,
  type EditPublishedJobData,
  type PublishJobData,
} from '../services/publishing/post-lifecycle';
import { planStatsSyncs, syncProfileStats, syncProfileStatsJobName, syncStatsJobName, type SyncProfileStatsData } from './sync-stats';
import { editPublishedPost } from './edit-published';
import {
  checkProfileHealth,
  checkProfileHealthJobName,
  healthPlanEveryMinutes,
  planHealthChecks,
  planHealthChecksJobName,
  type CheckProfileHealthData,
} from './health-check';
import { healthCheckClaimMs } from '../services/profiles/profile-health';
import { sendTelegramJobName, type SendTelegramData } from '../alerts/buckets';
import { deliverWebhookJobName, type DeliverWebhookData } from '../alerts/webhooks';
import { deliverWebhook, sendDigests, sendTelegram } from './alerts';
import type { JobDefinition } from './types';

/** The cron line (Europe/Kiev) of a statistics sync every `minutes` (STATS_INTERVAL). */
export function statsCron(minutes: number): string {
  if (minutes < 60) return `*/${minutes} * * * *`;
  return minutes === 1440 ? '0 0 * * *' : `0 */${minutes / 60} * * *`;
}

export const purgeRefreshTokensJob: JobDefinition = {
  name: 'purge-refresh-tokens',
  cron: '15 3 * * *',
  async handle(_data, { db, log, platforms }) {
    const removed = await purgeExpiredRefreshTokens(db, platforms.clock.now());
    log.info({ removed }, 'purged expired refresh tokens');
  },
};

export const renderFailedJob: JobDefinition<RenderJobData> = {
  name: renderFailedJobName,
  async handle(data, context) {
    await markRenderFailed(data, { ...context, clock: context.platforms.clock });
    context.log.warn({ requestId: data.requestId }, 'render gave up after its retries');
  },
};

export const renderJob: JobDefinition<RenderJobData> = {
  name: renderJobName,
  punctual: true,
  concurrency: (engine) => engine.renderConcurrency,
  queueOptions: {
    retryLimit: 2,
    retryDelay: 30,
    retryBackoff: true,
    deadLetter: renderFailedJobName,
  },
  async handle(data, context) {
    const started = performance.now();
    await renderRequest(data, { ...context, clock: context.platforms.clock });
    context.log.info({ requestId: data.requestId, ms: Math.round(performance.now() - started) }, 'rendered');
  },
};

export const publishFailedJob: JobDefinition<PublishJobData> = {
  name: publishFailedJobName,
  async handle(data, context) {
    await markPublishFailed(data, context);
    context.log.warn({ postId: data.postId }, 'publish gave up after its retries');
  },
};

export const publishJob: JobDefinition<PublishJobData> = {
  name: publishJobName,
  punctual: true,
  concurrency: (engine) => engine.publishConcurrency,
  queueOptions: {
    retryLimit: 5,
    retryDelay: 60,
    retryBackoff: true,
    // Only a backstop for a live but stuck run: a dead worker's jobs come back through the heartbeat
    // within seconds. Longer than a run can take: calls have timeouts, processing checks a deadline.
    expireInSeconds: 2 * 3600,
    deadLetter: publishFailedJobName,
  },
  handle: publishPost,
  retried: markPublishRetried,
};

export const editPublishedJob: JobDefinition<EditPublishedJobData> = {
  name: editPublishedJobName,
  // The operator watches the set's page for the edit to land.
  punctual: true,
  concurrency: (engine) => engine.publishConcurrency,
  // The handler retries in-process and records every failure on the post: a second run would change nothing.
  queueOptions: { retryLimit: 0, expireInSeconds: 15 * 60 },
  handle: editPublishedPost,
};

export const syncStatsJob: JobDefinition = {
  name: syncStatsJobName,
  cron: (platforms) => statsCron(platforms.statsIntervalMinutes),
  // Planning takes a query and a send per profile; a tick that fails is replaced by the next.
  queueOptions: { retryLimit: 0, expireInSeconds: 5 * 60 },
  async handle(_data, context) {
    const queued = await planStatsSyncs(context, context.platforms.clock.now());
    context.log.info({ queued }, 'statistics syncs planned');
  },
};

export const syncProfileStatsJob: JobDefinition<SyncProfileStatsData> = {
  name: syncProfileStatsJobName,
  concurrency: (engine) => engine.statsConcurrency,
  // "short": at most one waiting job per singleton key (the profile and platform), so ticks that
  // come while a sync runs or waits add none; the sync's lease keeps a second one from running.
  // Its expiry aborts the sync between two calls; what it did not read stays due for the next.
  queueOptions: { policy: 'short', retryLimit: 0, expireInSeconds: 15 * 60 },
  stopsAtShutdown: true,
  async handle(data, context) {
    const started = performance.now();
    const result = await syncProfileStats(data, context);
    context.log.info({ ...data, ...result, ms: Math.round(performance.now() - started) }, 'statistics synced');
  },
};

export const planHealthChecksJob: JobDefinition = {
  name: planHealthChecksJobName,
  cron: `*/${healthPlanEveryMinutes} * * * *`,
  // Planning takes one query and a send per profile due; a tick that fails is replaced by the next.
  queueOptions: { retryLimit: 0, expireInSeconds: 5 * 60 },
  async handle(_data, context) {
    const queued = await planHealthChecks(context, context.platforms.clock.now());
    context.log.info({ queued }, 'health checks planned');
  },
};

export const checkProfileHealthJob: JobDefinition<CheckProfileHealthData> = {
  name: checkProfileHealthJobName,
  // Each check waits on its own proxy, as a statistics sync does: as many at once as those.
  concurrency: (engine) => engine.statsConcurrency,
  // "short": at most one waiting check per profile. A check's reads each have a limit, so it ends
  // well within its expiry; one stopped midway records nothing and the next planning takes it again.
  // Its claim on the profile lasts as long, so one a dead worker left does not outlive its job.
  queueOptions: { policy: 'short', retryLimit: 0, expireInSeconds: healthCheckClaimMs / 1000 },
  stopsAtShutdown: true,
  async handle(data, context) {
    const checked = await checkProfileHealth(data, context);
    if (checked.kind === 'checked') {
      const { findings, unread, notified } = checked;
      context.log.info({ ...data, findings, unread, notified: notified !== null }, 'profile health checked');
    } else {
      // Another check holds the profile (one asked from its page): that one records what it finds.
      context.log.info({ ...data, skipped: checked.kind }, 'profile health check skipped');
    }
  },
};

export const sendTelegramJob: JobDefinition<SendTelegramData> = {
  name: sendTelegramJobName,
  // An alert is worth something only while it is news.
  punctual: true,
  concurrency: () => 4,
  // Telegram's 429 and 5xx pass; a chat that refuses is not retried (jobs/alerts.ts).
  queueOptions: { retryLimit: 5, retryDelay: 5, retryBackoff: true, expireInSeconds: 120 },
  handle: sendTelegram,
};

export const deliverWebhookJob: JobDefinition<DeliverWebhookData> = {
  name: deliverWebhookJobName,
  punctual: true,
  // Each attempt waits on a receiver for at most 15 s.
  concurrency: () => 8,
  // One job is one attempt: the delivery's own schedule on the clock retries it (alerts/webhooks.ts).
  queueOptions: { retryLimit: 0, expireInSeconds: 60 },
  handle: deliverWebhook,
};

export const alertDigestJob: JobDefinition = {
  name: 'alert-digest',
  cron: '0 9 * * *',
  queueOptions: { retryLimit: 1, expireInSeconds: 15 * 60 },
  handle: (_data, context) => sendDigests(context),
};

// The dead-letter queue must exist before the queue that points at it.
export const jobDefinitions: JobDefinition<any>[] = [
  purgeRefreshTokensJob,
  renderFailedJob,
  renderJob,
  publishFailedJob,
  publishJob,
  editPublishedJob,
  syncStatsJob,
  syncProfileStatsJob,
  planHealthChecksJob,
  checkProfileHealthJob,
  sendTelegramJob,
  deliverWebhookJob,
  alertDigestJob,
];
