import path from 'node:path';

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
}

const roles: Role[] = ['all', 'api', 'worker'];

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
  return {
    host: env.HOST || '127.0.0.1',
    port: positiveInt('PORT', env.PORT, 3000),
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl,
    role,
    secretKey: env.SECRET_KEY || undefined,
    adminLogin: env.ADMIN_LOGIN || 'admin',
    adminPassword: env.ADMIN_PASSWORD || undefined,
    accessTokenTtlSeconds: Math.min(positiveInt('ACCESS_TOKEN_TTL', env.ACCESS_TOKEN_TTL, 15 * 60), 15 * 60),
    refreshTokenTtlDays: positiveInt('REFRESH_TOKEN_TTL_DAYS', env.REFRESH_TOKEN_TTL_DAYS, 30),
    logLevel: env.LOG_LEVEL || 'info',
  };
}
