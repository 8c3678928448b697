import PgBoss from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/connect';
import type { EngineSettings } from './engine-settings';
import { jobDefinitions } from './definitions';
import type { JobContext } from './types';
import { publishJobName } from '../services/publishing/post-lifecycle';
import { QueueRunner, recoverOrphans, type FetchedJob } from '../engine/runner';
import { watchDueJobs } from '../engine/due-jobs';
import { abortStoppedUploads, stopPollMs } from './publish-stops';
import { refreshDueConnections } from '../platforms/connections';
import { liveProcesses, registerProcess, removeDeadProcesses, startHeartbeat, unregisterProcess } from '../engine/liveness';
import { startAlertTicker } from './alerts';

/** `stop` also stops the runners (handing unfinished jobs back to the queue) and the heartbeat. */
export type Queue = PgBoss & {
  /** Present in worker processes: the runner of each queue, for the engine's figures. */
  runners?: Map<string, QueueRunner>;
  /**
   * Tells this process's runner of `name` that a job was committed, so it fetches now instead of
   * at its next poll; nothing in an API process, whose workers poll.
   */
  nudge(name: string): void;
};

export interface QueueOptions {
  db: Database;
  log: FastifyBaseLogger;
  /** Worker processes run handlers, cron schedules and pg-boss maintenance; API processes only send. */
  work: boolean;
  context: Omit<JobContext, 'log' | 'queue' | 'signal' | 'jobId' | 'engine'>;
  /** Polling, concurrency and liveness. */
  engine: EngineSettings;
}

/**
 * Starts pg-boss inside the app's own database (PGlite or Postgres), in its own `pgboss` schema,
 * and in worker processes one runner per queue, a heartbeat, and a sweeper that hands the jobs,
 * leases and scratch folders of dead processes back.
 */
export async function startQueue({ db, log, work, context, engine }: QueueOptions): Promise<Queue> {
  const boss = new PgBoss({
    db: { executeSql: (text: string, values?: unknown[]) => db.sql(text, values) },
    supervise: work,
    schedule: work,
    migrate: true,
  }) as Queue;
  boss.on('error', (error) => log.error({ err: error }, 'job queue error'));
  await boss.start();
  for (const definition of jobDefinitions) {
    await boss.createQueue(definition.name, { name: definition.name, ...definition.queueOptions });
  }
  const stopBoss = boss.stop.bind(boss);
  await registerProcess(db, work ? 'worker' : 'api');
  boss.nudge = () => undefined;
  if (!work) {
    const heartbeat = startHeartbeat(db, log, 'api', engine, () => undefined);
    boss.stop = async (options) => {
      heartbeat.stop();
      await stopBoss(options);
      await unregisterProcess(db).catch(() => undefined);
    };
    return boss;
  }

  const runners = new Map<string, QueueRunner>();
  for (const definition of jobDefinitions) {
    if (definition.cron) {
      const cron = typeof definition.cron === 'string' ? definition.cron : definition.cron(context.platforms);
      await boss.schedule(definition.name, cron, {}, { tz: 'Europe/Kiev' });
    }
    const runner = new QueueRunner({
      boss,
      db,
      log,
      name: definition.name,
      concurrency: definition.concurrency?.(engine) ?? 1,
      stopsAtShutdown: definition.stopsAtShutdown,
      handle: (job, signal) =>
        definition.handle(job.data as never, {
          ...context,
          queue: boss,
          log: log.child({ job: definition.name, jobId: job.id }),
          signal,
          jobId: job.id,
          engine,
        }),
      ...(definition.retried ? { retried: (job: FetchedJob, at: Date) => definition.retried!(job.data as never, at, { db }) } : {}),
    });
    runners.set(definition.name, runner);
  }
  boss.runners = runners;
  boss.nudge = (name) => runners.get(name)?.nudge();
  const dueJobs = watchDueJobs({
    db,
    log,
    queues: jobDefinitions.map((definition) => ({
      name: definition.name,
      everySeconds: definition.punctual ? engine.pollSeconds : engine.backgroundPollSeconds,
      wake: () => runners.get(definition.name)!.nudge(),
    })),
  });

  const heartbeat = startHeartbeat(db, log, 'worker', engine, () => {
    for (const runner of runners.values()) runner.abandonAll('this worker was taken for dead');
  });
  const names = jobDefinitions.map((definition) => definition.name);
  const sweep = async () => {
    const dead = await removeDeadProcesses(db, engine);
    if (dead.length > 0) {
      log.warn({ processes: dead }, 'processes stopped beating: their jobs, leases and scratch files are taken back');
      const swept = await context.media.storage.sweepScratch(await liveProcesses(db, engine));
      if (swept > 0) log.info({ swept }, 'removed scratch folders of dead processes');
    }
    await recoverOrphans(db, boss, log, names, engine);
  };
  // The interval work runs on the context's clock; each callback returns its work, so a test's
  // clock that fires it can wait for it (tests/server/manual-clock.ts).
  const { clock } = context.platforms;
  let sweeping: Promise<void> = Promise.resolve();
  const sweeper = clock.setInterval(() => {
    sweeping = sweep().catch((error) => log.warn({ err: error }, 'sweeping dead workers failed'));
    return sweeping;
  }, engine.heartbeatSeconds * 1000);

  // A delete asks running uploads to stop through the database, so the request reaches every worker.
  let watching = false;
  const stopWatcher = clock.setInterval(() => {
    if (watching) return;
    watching = true;
    return abortStoppedUploads(db, runners.get(publishJobName)!, new Date(clock.now()))
      .catch((error) => log.warn({ err: error }, 'looking for stop requests failed'))
      .finally(() => (watching = false));
  }, stopPollMs);

  // OAuth connections are renewed ahead of their end; the row lock keeps it to one refresh per credential across workers.
  let refreshing = false;
  const refresher = clock.setInterval(() => {
    if (refreshing) return;
    refreshing = true;
    const { platforms } = context;
    return refreshDueConnections(
      db,
      context.keys.secretsAtRest,
      { mode: platforms.mode, platformsOrigin: platforms.sandboxOrigin, apps: platforms.apps, network: platforms.network, clock },
      (accountId, platform, error) => log.warn({ accountId, platform, err: error }, 'renewing a connection failed'),
    )
      .catch((error) => log.warn({ err: error }, 'renewing connections failed'))
      .finally(() => (refreshing = false));
  }, engine.heartbeatSeconds * 1000);

  const alertTicker = startAlertTicker({ db, queue: boss, log, platforms: context.platforms, groupSeconds: engine.alertGroupSeconds });

  boss.stop = async (options = {}) => {
    await alertTicker.stop();
    refresher.clear();
    stopWatcher.clear();
    sweeper.clear();
    await sweeping;
    await dueJobs.stop();
    const timeoutMs = options.graceful === false ? 0 : (options.timeout ?? 30_000);
    await Promise.all([...runners.values()].map((runner) => runner.stop(timeoutMs)));
    heartbeat.stop();
    await stopBoss(options);
    await unregisterProcess(db).catch(() => undefined);
  };
  return boss;
}
