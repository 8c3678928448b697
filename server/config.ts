import path from 'node:path';

export type Role = 'all' | 'api' | 'worker';

/** `sandbox`: platform calls go to the built-in emulator under /sandbox; `live`: to the real platforms. */
export type PlatformMode = 'sandbox' | 'live';

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
  platforms: PlatformMode;
  /** The address browsers and OAuth providers reach this server at; unset, each request's own host is used. */
  publicUrl: string | undefined;
}

const roles: Role[] = ['all', 'api', 'worker'];
const platformModes: PlatformMode[] = ['sandbox', 'live'];

function roleFromArgs(argv: string[]): Role | undefined {
  const flag = argv.find((arg) => arg.startsWith('--role='));
  return flag ? (flag.slice('--role='.length) as Role) : undefined;
}

function positiveInt(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) {
    throw new Error(`${name} must be a positive whole number, got "${raw}"`);
  }
  return value;
}

function publicUrl(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  const url = new URL(raw);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`PUBLIC_URL must be an http(s) URL, got "${raw}"`);
  return url.origin + url.pathname.replace(/\/+$/, '');
}

/** Every environment variable the server reads, parsed once. The README lists the same table. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, argv: string[] = process.argv): Config {
  const role = roleFromArgs(argv) ?? (env.ROLE as Role | undefined) ?? 'all';
  if (!roles.includes(role)) throw new Error(`--role must be one of ${roles.join(', ')}, got "${role}"`);
  const databaseUrl = env.DATABASE_URL || undefined;
  if (role !== 'all' && !databaseUrl) {
    throw new Error(
      `--role=${role} needs DATABASE_URL: the embedded database (PGlite) belongs to one process, so split roles must share a real Postgres`,
    );
  }
  const platforms = (env.PLATFORMS || 'sandbox') as PlatformMode;
  if (!platformModes.includes(platforms)) {
    throw new Error(`PLATFORMS must be one of ${platformModes.join(', ')}, got "${platforms}"`);
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
    platforms,
    publicUrl: publicUrl(env.PUBLIC_URL),
  };
}
