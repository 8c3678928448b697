import fs from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import Fastify, { type FastifyBaseLogger, type FastifyError, type FastifyReply, type FastifyRequest, type RouteOptions } from 'fastify';
import fastifyStatic from '@fastify/static';
import helmet from 'helmet';
import swagger from '@fastify/swagger';
import { t } from './messages';
import type { Database } from './db/connect';
import type { Keys } from './auth/keys';
import { postingBudgetRoutes } from './routes/posting-budget';
import type { TokenSettings } from './auth/tokens';
import type { Queue } from './jobs/queue';
import { engineFigures } from './engine/figures';
import {
  engineSettings,
  fastifyTrustProxy,
  platformTimeoutSettings,
  postingCapSettings,
  postingSlotSettings,
  statsSyncSettings,
  type TrustProxy,
} from './config';
import { platformNetwork, type PlatformNetwork } from './net/http';
import type { MediaServices } from './media/services';
import { clientErrorAnswer, errorBody, frameworkRefusal, HttpError, isDataException, isDiskFull, schemaMessages } from './http-error';
import { authRoutes } from './routes/auth';
import { requireAdmin, requireUser } from './auth/guards';
import type { PlatformsMode, PostingCapSettings } from './platforms/types';
import type { PlatformApps } from './platforms/oauth-links';
import type { PlatformAccess } from './platforms/profile-context';
import { sandboxStatsRoutes } from './routes/sandbox-stats';
import { isSandboxControl, registerSandbox, SandboxState, type SandboxOptions } from './sandbox/index';
import { photoRoutes } from './routes/photos';
import { createVideoRoutes } from './routes/create-video';
import { mediaRoutes } from './routes/media';
import { accountRoutes } from './routes/accounts';
import { accountGroupRoutes } from './routes/account-groups';
import { tagRoutes } from './routes/tags';
import { userRoutes } from './routes/users';
import { oauthRoutes, type OAuthSettings } from './routes/oauth';
import { postingRulesRoutes } from './routes/posting-rules';
import { uploadVideoRoutes } from './routes/upload-video';
import { statsRoutes } from './routes/stats';
import { calendarRoutes } from './routes/calendar';
import { planRoutes } from './routes/plans';
import { homeRoutes } from './routes/home';
import { notificationRoutes } from './routes/notifications';
import { apiTokenRoutes } from './routes/api-tokens';
import { webhookRoutes } from './routes/webhooks';
import { telegramRoutes } from './routes/telegram';
import { mcpRoutes } from './mcp/routes';
import { botTokenOf } from './alerts/telegram-bot';
import { googleOAuthSandbox } from './sandbox/youtube/oauth';
import { healthSchemas } from '../src/lib/contract/oauth';
import { creatorRulesReader } from './services/publishing/posting-rules';
import { validatorCompiler } from './validators';
import { apiDocumentOptions, documentServers, sandboxDocumentOptions } from './openapi/documents';
import { refuseForeignCharsets, strictJsonBodies } from './json-body';
import { redactUrl } from './net/redact-url';
import type { Clock } from './clock';
import type { PostingSlots } from '../src/lib/contract';
import type { StatsSyncSettings } from './services/statistics/quota-ledger';

export interface AppDeps {
  db: Database;
  keys: Keys;
  tokenSettings: TokenSettings;
  /** Null in processes that do not talk to the queue; /readyz then checks the database only. */
  queue: Queue | null;
  media: MediaServices;
  /** The built SPA; when absent the server answers the API only. */
  distDir?: string;
  logger?: FastifyBaseLogger;
  /** PLATFORMS, `sandbox` when absent: the platform emulator is then mounted under /sandbox. */
  platforms?: PlatformsMode;
  /** The emulator's data directory and clock, or a ready state to share with a test. */
  sandbox?: SandboxOptions & { state?: SandboxState };
  /**
   * PUBLIC_URL, required in live mode; in sandbox mode this server's own listening address when
   * absent. Never taken from a request's Host header.
   */
  publicUrl?: string;
  /** Where platform calls made by the API reach the sandbox; this server's own address when absent. */
  sandboxOrigin?: string;
  /** The loopback proxy started for sandbox profiles, which the profile form offers. */
  sandboxProxy?: string;
  /** WORKER_DEAD_AFTER_SECONDS, for counting live workers in /readyz. */
  deadAfterSeconds?: number;
  /** TRUST_PROXY: which peers' X-Forwarded-For names the client; none when absent. */
  trustProxy?: TrustProxy;
  /** The installation's TikTok and Instagram apps (config.platformApps); the mode's defaults when absent. */
  platformApps?: PlatformApps;
  /** YOUTUBE_APP_IN_TESTING=1 (config.youtubeAppInTesting): Google's refresh tokens end 7 days after consent. */
  youtubeAppInTesting?: boolean;
  /** TIKTOK_DAILY_POSTS and YOUTUBE_DAILY_UPLOADS (config.postingCaps), for the posting budget; their defaults when absent. */
  postingCaps?: PostingCapSettings;
  /** POSTING_* (config.postingSlots): the slots of profiles and groups without their own; their defaults when absent. */
  postingSlots?: PostingSlots;
  /** STATS_* (config.engine.statsSync): what platform reads may spend, a check from a profile's page too; their defaults when absent. */
  statsSync?: StatsSyncSettings;
  /** The way out to the platforms (config.platformTimeouts, PROXY_ALLOW_PRIVATE); the defaults for the mode when absent. */
  network?: PlatformNetwork;
  /** The time the API's platform calls go by. */
  clock: Clock;
  /** TELEGRAM_BOT_TOKEN (config.telegramBotToken); in sandbox mode the sandbox's bot when absent. */
  telegramBotToken?: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route as registered, with its schemas: what the API docs and the contract tests walk. */
    routeTable: RouteOptions[];
    db: Database;
    keys: Keys;
    tokenSettings: TokenSettings;
    queue: Queue | null;
    media: MediaServices;
    /** What the routes' own waits go by (a delete's wait for the uploads it stopped). */
    clock: Clock;
  }
}

/**
 * Wherever a request's headers land in a log line: Fastify's own request lines, plugins that log
 * the headers they were given (@fastify/multipart logs its busboy options at trace level), and
 * errors that carry a request's or an answer's headers.
 */
export const logRedactions = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'headers.cookie',
  '*.headers.authorization',
  '*.headers.cookie',
  '*.headers["proxy-authorization"]',
  '*.*.headers.authorization',
  '*.*.headers["proxy-authorization"]',
  'busboyOptions.headers.authorization',
  'busboyOptions.headers.cookie',
];

/** Request log lines without the credentials that travel in URLs (OAuth callbacks, the sandbox's Graph API, the Bot API, media links). */
export const logSerializers = {
  req: (request: { method: string; url: string; host?: string; ip?: string }) => ({
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
  }),
};

/**
 * The SPA is built files only: scripts from this origin, no inline script, no eval, no framing.
 * Styles allow inline because the toast library injects its stylesheet at run time; scripts,
 * where an injection would steal the tokens kept in localStorage, never do.
 */
const contentSecurityPolicy = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  mediaSrc: ["'self'", 'blob:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

/**
 * Helmet's headers, built once: @fastify/helmet builds Helmet's middleware again for every request
 * (parsing the CSP each time), which cost the API lists a fifth of their throughput.
 */
const securityHeaders = helmet({
  contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy },
  frameguard: { action: 'deny' },
});

/** This server's own address once it listens: where its sandbox answers when no SANDBOX_ORIGIN says otherwise. */
function listeningOrigin(app: { server: { address(): unknown } }): string {
  const address = app.server.address() as AddressInfo | string | null;
  if (!address || typeof address === 'string') return 'http://127.0.0.1';
  const host = address.address === '::' || address.address === '0.0.0.0' ? '127.0.0.1' : address.address;
  return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
}

/** Every error answer the API gives: SPEC's shape, the catalog's words, whoever raised it. */
function answerError(error: FastifyError | HttpError, request: FastifyRequest, reply: FastifyReply) {
  const fastifyError = error as FastifyError;
  let statusCode = error.statusCode ?? 500;
  if (statusCode < 400 || statusCode >= 600) statusCode = 500;
  let message: string | string[];
  if (error instanceof HttpError) {
    message = error.messages;
  } else if (fastifyError.validation) {
    // A path that cannot name a row is a missing row, as for an id that names none.
    const inPath = fastifyError.validationContext === 'params';
    statusCode = inPath ? 404 : 400;
    message = inPath ? t.server.notFound : schemaMessages(fastifyError.validation);
  } else if (isDiskFull(error)) {
    statusCode = 507;
    message = t.server.diskFull;
  } else if (statusCode >= 500 && isDataException(error)) {
    statusCode = 400;
    message = t.server.badRequest;
    request.log.warn({ err: error }, 'the database refused a value of the request');
  } else if (statusCode >= 500) {
    message = t.server.internalError;
  } else {
    message = frameworkRefusal(fastifyError);
  }
  if (statusCode >= 500) request.log.error({ err: error }, 'request failed');
  // Refused before its body was read to the end (a full disk under an upload, a Content-Length over
  // the limit): the rest is never read, so the connection ends here, and says so, or a keep-alive
  // client would send its next request down a socket about to close.
  if (request.raw.complete === false) reply.header('connection', 'close');
  return reply.status(statusCode).send(errorBody(statusCode, message));
}

/** The whole HTTP application without a listening socket, so tests can drive it with `inject()`. */
export async function buildApp(deps: AppDeps) {
  const trustProxy = fastifyTrustProxy(deps.trustProxy ?? false);
  const edgeErrors = {
    // As Fastify's default: a connection the client reset has no one left to answer.
    clientErrorHandler(error: Error & { code?: string }, socket: Duplex) {
      if (error.code === 'ECONNRESET' || socket.destroyed) return;
      if (socket.writable) socket.write(clientErrorAnswer(error));
      socket.destroy(error);
    },
    // The router's refusals (a bad %-sequence, an over-long path parameter), answered as any other error.
    frameworkErrors: answerError,
  };
  const app = deps.logger
    ? Fastify({ loggerInstance: deps.logger, trustProxy, ...edgeErrors })
    : Fastify({ logger: false, trustProxy, ...edgeErrors });
  app.setValidatorCompiler(validatorCompiler);
  strictJsonBodies(app);
  app.decorate('db', deps.db);
  app.decorate('keys', deps.keys);
  app.decorate('tokenSettings', deps.tokenSettings);
  app.decorate('queue', deps.queue);
  app.decorate('media', deps.media);
  app.decorate('clock', deps.clock);
  app.decorateRequest('user', null);
  app.decorateRequest('sessionId', null);
  app.decorateRequest('apiToken', null);
  const routeTable: RouteOptions[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (route) => {
    routeTable.push(route);
  });
  await app.register(swagger, apiDocumentOptions);
  await app.register(swagger, sandboxDocumentOptions(isSandboxControl));
  app.addHook('onRequest', (request, reply, done) => securityHeaders(request.raw, reply.raw, (error) => done(error as Error | undefined)));

  app.setErrorHandler(answerError);

  app.get('/healthz', { schema: healthSchemas.live }, async () => ({ status: 'ok' }));
  // A probe asks without signing in and learns only ready or not; the engine's figures (queues,
  // active jobs, workers) are for an admin, by session or admin token.
  app.get('/readyz', { schema: healthSchemas.ready }, async (request, reply) => {
    const notReady = (error: unknown) => {
      app.log.warn({ err: error }, 'not ready');
      return reply.status(503).send({ status: 'unavailable', ...errorBody(503, t.server.notReady) });
    };
    try {
      await deps.db.sql('SELECT 1', []);
    } catch (error) {
      return notReady(error);
    }
    if (request.headers.authorization === undefined) return { status: 'ok' };
    await requireAdmin(request, reply);
    if (!deps.queue) return { status: 'ok' };
    try {
      return { status: 'ok', engine: await engineFigures(deps.db, deps.deadAfterSeconds ?? engineSettings().deadAfterSeconds) };
    } catch (error) {
      return notReady(error);
    }
  });

  const platforms = deps.platforms ?? 'sandbox';
  if (platforms === 'live' && !deps.publicUrl) throw new Error('PUBLIC_URL is required with PLATFORMS=live');
  const network =
    deps.network ?? platformNetwork({ timeouts: platformTimeoutSettings(), policy: { mode: platforms, allowPrivate: false } });
  const platformAccess = (): PlatformAccess => ({
    mode: platforms,
    sandboxOrigin: deps.sandboxOrigin ?? listeningOrigin(app),
    apps: deps.platformApps,
    sandboxTokenTtlSeconds: deps.sandbox?.tokenTtlSeconds,
    network,
    clock: deps.clock,
  });
  const oauth: OAuthSettings = {
    platforms,
    publicUrl: () => deps.publicUrl ?? listeningOrigin(app),
    platformsOrigin: () => platformAccess().sandboxOrigin,
    apps: deps.platformApps,
    youtubeAppInTesting: deps.youtubeAppInTesting,
    network,
    clock: deps.clock,
  };
  // One per server: Save checks a plan against the creator_info answers its form just read.
  const readCreatorRules = creatorRulesReader(deps.db);
  const postingSlots = deps.postingSlots ?? postingSlotSettings();
  const postingCaps = deps.postingCaps ?? postingCapSettings();
  await app.register(
    async (api) => {
      api.addHook('onRequest', refuseForeignCharsets);
      await api.register(authRoutes, { prefix: '/auth', publicUrl: deps.publicUrl, clock: deps.clock });
      await api.register(photoRoutes, { prefix: '/photo-bg' });
      await api.register(createVideoRoutes, { prefix: '/create-video' });
      await api.register(uploadVideoRoutes, {
        prefix: '/upload-video',
        platforms: platformAccess,
        readCreatorRules,
        postingSlots,
        postingCaps,
      });
      await api.register(mediaRoutes, { prefix: '/media' });
      await api.register(postingBudgetRoutes, { prefix: '/accounts/budget', platforms: platformAccess, postingCaps });
      await api.register(accountRoutes, {
        prefix: '/accounts',
        oauth,
        platforms: platformAccess,
        sandboxProxy: deps.sandboxProxy,
        postingSlots,
        statsSync: deps.statsSync ?? statsSyncSettings(),
      });
      await api.register(accountGroupRoutes, { prefix: '/accounts-group', postingSlots });
      await api.register(tagRoutes, { prefix: '/tags' });
      await api.register(userRoutes, { prefix: '/users' });
      await api.register(oauthRoutes, { prefix: '/oauth', oauth });
      await api.register(statsRoutes, { prefix: '/stats' });
      await api.register(calendarRoutes, { prefix: '/calendar', postingSlots });
      await api.register(planRoutes, { prefix: '/plans', platforms: platformAccess, postingSlots, postingCaps });
      await api.register(homeRoutes, { prefix: '/home', clock: deps.clock });
      await api.register(notificationRoutes, { prefix: '/notifications' });
      await api.register(apiTokenRoutes, { prefix: '/tokens' });
      await api.register(webhookRoutes, { prefix: '/webhooks', mode: platforms });
      await api.register(telegramRoutes, {
        prefix: '/telegram',
        bot: () => ({
          mode: platforms,
          sandboxOrigin: platformAccess().sandboxOrigin,
          botToken: botTokenOf(platforms, deps.telegramBotToken),
        }),
      });
      await api.register(postingRulesRoutes, { prefix: '/posting-rules', platforms: platformAccess, readCreatorRules });
      // The OpenAPI document of every route, generated from the schemas that validate them, for
      // any signed-in user or API token: scripts are written against it (docs/api.md). No Swagger UI:
      // it needs inline scripts the CSP refuses, and a page cannot send the Bearer token the docs need.
      api.get('/docs', { schema: { hide: true }, preHandler: requireUser }, async (request) => ({
        ...app.swagger(),
        servers: documentServers(deps.publicUrl, request),
      }));
    },
    { prefix: '/api' },
  );
  await app.register(mcpRoutes);
  if (platforms === 'sandbox') {
    const sandbox = deps.sandbox?.state ?? new SandboxState(deps.sandbox);
    sandbox.telegram.useToken(botTokenOf('sandbox', deps.telegramBotToken)!);
    await app.register(googleOAuthSandbox, { prefix: '/sandbox', key: deps.keys.sandboxGoogle, now: sandbox.now });
    await registerSandbox(app, { state: sandbox, guardControls: requireAdmin });
    await app.register(sandboxStatsRoutes, { prefix: '/sandbox' });
    // The emulator's own document, apart from the operators' (docs/api.md).
    app.get('/sandbox/docs', { schema: { hide: true }, preHandler: requireUser }, async (request) => ({
      ...app.sandboxSwagger(),
      servers: documentServers(deps.publicUrl, request),
    }));
  }

  const indexHtml = deps.distDir ? path.join(deps.distDir, 'index.html') : undefined;
  const assetsDir = deps.distDir ? path.join(deps.distDir, 'assets') + path.sep : '';
  if (deps.distDir && indexHtml && fs.existsSync(indexHtml)) {
    await app.register(fastifyStatic, {
      root: deps.distDir,
      wildcard: false,
      index: false,
      // Vite writes .br and .gz beside each file; the one the browser accepts is sent as it is.
      preCompressed: true,
      cacheControl: false,
      // Hashed assets never change under their name; index.html is asked again each time.
      setHeaders: (res, filePath) =>
        res.setHeader('cache-control', filePath.startsWith(assetsDir) ? 'public, max-age=31536000, immutable' : 'no-cache'),
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const isApi = /^\/(api|sandbox)(\/|$|\?)/.test(request.url);
    if (!isApi && request.method === 'GET' && indexHtml && fs.existsSync(indexHtml)) {
      return reply.type('text/html').sendFile('index.html');
    }
    return reply.status(404).send(errorBody(404, t.server.routeNotFound));
  });

  return app;
}
