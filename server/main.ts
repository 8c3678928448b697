import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { ConfigError, loadConfig } from './config';
import { connectDatabase } from './db/connect';
import { migrate, underStartupLock } from './db/migrate';
import { deriveKeys, loadSecretKey } from './auth/keys';
import { sealPlainProxyPasswords } from './auth/secrets';
import { moveLegacyYouTubeTokens, moveTypedCredentials } from './platforms/connections';
import { startQueue } from './jobs/queue';
import { bootstrapAdmin } from './bootstrap-admin';
import { buildApp, logRedactions, logSerializers } from './app';
import { buildSpaIfStale } from './build-spa';
import { startLoopbackProxy } from './sandbox/loopback-proxy';
import { mediaServices } from './media/services';
import { platformNetwork } from './net/http';
import { liveProcesses } from './engine/liveness';
import { systemClock } from './clock';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

async function main() {
  const config = loadConfig();
  const clock = systemClock;
  const log = pino({ level: config.logLevel, redact: logRedactions, serializers: logSerializers });

  const media = mediaServices(config);
  await media.storage.check().catch((error: Error) => {
    throw new ConfigError(`media storage ${media.storage.location}: ${error.message}`);
  });
  log.info({ ffmpeg: media.tools.ffmpeg, ffprobe: media.tools.ffprobe, storage: media.storage.location }, 'media');
  // One per process: the API and the workers share its proxy connections.
  const network = platformNetwork({
    timeouts: config.platformTimeouts,
    policy: { mode: config.platforms, allowPrivate: config.proxyAllowPrivate },
  });

  const db = await connectDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });

  const keys = deriveKeys(await loadSecretKey(config.secretKey, config.dataDir));
  const tokenSettings = {
    keys,
    accessTokenTtlSeconds: config.accessTokenTtlSeconds,
    refreshTokenTtlDays: config.refreshTokenTtlDays,
  };

  const { admin, queue } = await underStartupLock(db, async () => {
    const applied = await migrate(db);
    log.info({ database: db.kind, applied }, 'database ready');
    const sealedProxies = await sealPlainProxyPasswords(db, keys.secretsAtRest);
    if (sealedProxies > 0) log.info({ sealedProxies }, 'encrypted the passwords of proxies stored before migration 0007');
    const youtubeTokens = await moveLegacyYouTubeTokens(db, keys.secretsAtRest);
    if (youtubeTokens.moved > 0) log.info({ moved: youtubeTokens.moved }, 'moved YouTube refresh tokens into the profiles’ connections');
    if (youtubeTokens.unreadable > 0)
      log.warn({ unreadable: youtubeTokens.unreadable }, 'YouTube refresh tokens SECRET_KEY cannot open were left');
    const typedCredentials = await moveTypedCredentials(db, keys.secretsAtRest);
    if (typedCredentials.moved > 0) log.info({ moved: typedCredentials.moved }, 'moved typed credentials into the profiles’ connections');
    if (typedCredentials.unreadable > 0)
      log.warn({ unreadable: typedCredentials.unreadable }, 'typed credentials SECRET_KEY cannot open were left');
    return {
      admin: await bootstrapAdmin(db, config.adminLogin, config.adminPassword),
      queue: await startQueue({
        db,
        log,
        work: config.role !== 'api',
        engine: config.engine,
        context: {
          db,
          media,
          keys,
          platforms: {
            mode: config.platforms,
            sandboxOrigin: config.sandboxOrigin,
            statsIntervalMinutes: config.statsIntervalMinutes,
            apps: config.platformApps,
            postingCaps: config.postingCaps,
            telegramBotToken: config.telegramBotToken,
            network,
            clock,
          },
        },
      }),
    };
  });
  if (admin.created && admin.generatedPassword) {
    // Printed once, on purpose outside the logger, so it is not kept in structured logs.
    console.log(`\nAdmin account created. Login: ${admin.login}  Password: ${admin.generatedPassword}\n`);
  } else if (admin.created) {
    log.info({ login: admin.login }, 'admin account created from ADMIN_LOGIN / ADMIN_PASSWORD');
  }

  // Registered by startQueue, so this process's own id counts as live.
  const sweptScratch = await media.storage.sweepScratch(await liveProcesses(db, config.engine));
  if (sweptScratch > 0) log.info({ sweptScratch }, 'removed scratch folders left by a dead process mid-upload or mid-render');

  const serveHttp = config.role !== 'worker';
  // The sandbox's way in for profiles: lets a new user give a profile a working proxy offline; the profile form offers it.
  const loopbackProxy = serveHttp && config.platforms === 'sandbox' ? await startSandboxProxy(config.sandboxProxyPort) : null;
  const app = serveHttp
    ? await buildApp({
        db,
        keys,
        tokenSettings,
        queue,
        media,
        distDir: await buildSpaIfStale(root, (message) => log.info(message)),
        logger: log,
        platforms: config.platforms,
        sandbox: { dataDir: config.dataDir, ...config.sandboxPlatforms, youtubeAppInTesting: config.youtubeAppInTesting, now: clock.now },
        clock,
        publicUrl: config.publicUrl,
        sandboxOrigin: config.sandboxOrigin,
        sandboxProxy: loopbackProxy?.url,
        deadAfterSeconds: config.engine.deadAfterSeconds,
        trustProxy: config.trustProxy,
        platformApps: config.platformApps,
        youtubeAppInTesting: config.youtubeAppInTesting,
        postingCaps: config.postingCaps,
        postingSlots: config.postingSlots,
        statsSync: config.engine.statsSync,
        telegramBotToken: config.telegramBotToken,
        network,
      })
    : null;
  if (app) {
    await app.listen({ host: config.host, port: config.port });
    console.log(`Ready: http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port}`);
    if (loopbackProxy) {
      console.log(`Sandbox platforms at ${config.sandboxOrigin}/sandbox`);
      console.log(`Sandbox proxy for profiles: ${loopbackProxy.url}`);
    }
  } else {
    log.info('worker started: running queue handlers, serving no HTTP');
  }

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    // Close order: stop taking requests (in-flight ones finish), then stop jobs, then the database.
    await app?.close();
    await loopbackProxy?.close();
    await queue.stop({ graceful: true, wait: true, timeout: 30_000 });
    await db.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

/**
 * The proxy operators save on sandbox profiles, on a port that stays the same across restarts;
 * when something else holds that port, any free one still lets publishing work for this run.
 */
async function startSandboxProxy(port: number) {
  try {
    return await startLoopbackProxy({ port });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || port === 0) throw error;
    const proxy = await startLoopbackProxy({ port: 0 });
    console.warn(
      `Warning: port ${port} for the sandbox proxy is taken, so it listens on ${proxy.url} for this run only; ` +
        `profiles saved with port ${port} fail until it is free again (or set SANDBOX_PROXY_PORT).`,
    );
    return proxy;
  }
}

main().catch((error) => {
  console.error(error instanceof ConfigError ? `Configuration error: ${error.message}` : error);
  process.exit(1);
});
