import path from 'node:path';
import type { PlatformsMode } from './platforms/types';

export type Role = 'all' | 'api' | 'worker';

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  databaseUrl: string | undefined;
  role: Role;
  secretKey: string | undefined;
  adminLogin: string;
  adminPassword: string | undefined;
  accessTokenTtlSeconds: number;
  refreshTokenTtlDays: number;
  logLevel: string;
  /** Loopback proxy port in sandbox mode; 0 picks a free one, printed at start. */
  sandboxProxyPort: number;
  /** Where connectors reach the sandbox platforms (this server), e.g. from a worker process. */
  sandboxOrigin: string;
  platforms: PlatformsMode;
}

const roles: Role[] = ['all', 'api', 'worker'];
const platformsModes: PlatformsMode[] = ['sandbox', 'live'];

/** A configuration mistake: printed as one plain sentence at start-up, without a stack trace. */
export class ConfigError extends Error {}

function roleFromArgs(argv: string[]): Role | undefined {
  const flag = argv.find((arg) => arg.startsWith('--role='));
  return flag ? (flag.slice('--role='.length) as Role) : undefined;
}

function positiveInt(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) {
    throw new ConfigError(`${name} must be a positive whole number, got "${raw}"`);
  }
  return value;
}

/** Every environment variable the server reads, parsed once. The README lists the same table. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, argv: string[] = process.argv): Config {
  const role = roleFromArgs(argv) ?? (env.ROLE as Role | undefined) ?? 'all';
  if (!roles.includes(role)) throw new ConfigError(`--role must be one of ${roles.join(', ')}, got "${role}"`);
  const databaseUrl = env.DATABASE_URL || undefined;
  if (role !== 'all' && !databaseUrl) {
    throw new ConfigError(
      `--role=${role} needs DATABASE_URL: the embedded database (PGlite) belongs to one process, so split roles must share a real Postgres`,
    );
  }
  const platforms = (env.PLATFORMS || 'sandbox') as PlatformsMode;
  if (!platformsModes.includes(platforms)) {
    throw new Error(`PLATFORMS must be one of ${platformsModes.join(', ')}, got "${platforms}"`);
  }
  const host = env.HOST || '127.0.0.1';
  const port = positiveInt('PORT', env.PORT, 3000);
  const sandboxProxyPort = env.SANDBOX_PROXY_PORT ? Number(env.SANDBOX_PROXY_PORT) : 0;
  if (!Number.isInteger(sandboxProxyPort) || sandboxProxyPort < 0 || sandboxProxyPort > 65535) {
    throw new Error(`SANDBOX_PROXY_PORT must be a port number or 0, got "${env.SANDBOX_PROXY_PORT}"`);
  }
  const loopbackHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return {
    host,
    port,
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl,
    role,
    secretKey: env.SECRET_KEY || undefined,
    adminLogin: env.ADMIN_LOGIN || 'admin',
    adminPassword: env.ADMIN_PASSWORD || undefined,
    accessTokenTtlSeconds: Math.min(positiveInt('ACCESS_TOKEN_TTL', env.ACCESS_TOKEN_TTL, 15 * 60), 15 * 60),
    refreshTokenTtlDays: positiveInt('REFRESH_TOKEN_TTL_DAYS', env.REFRESH_TOKEN_TTL_DAYS, 30),
    logLevel: env.LOG_LEVEL || 'info',
    sandboxProxyPort,
    sandboxOrigin: (
      env.SANDBOX_ORIGIN || `http://${loopbackHost.includes(':') ? `[${loopbackHost}]` : loopbackHost}:${port}`
    ).replace(/\/$/, ''),
    platforms,
  };
}
