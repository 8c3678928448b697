import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import fs from 'node:fs';

/** `target` may not import `from`: each layer imports only the layers below it. */
const below = (target, above) => ({ target, from: above });
const serverLayers = [
  // The composition roots read the configuration and wire the layers; no layer reads them.
  below(
    [
      'server/routes',
      'server/services',
      'server/alerts',
      'server/jobs',
      'server/engine',
      'server/platforms',
      'server/media',
      'server/net',
      'server/auth',
      'server/db',
      'server/sandbox',
    ],
    ['server/main.ts', 'server/app.ts', 'server/config.ts'],
  ),
  // routes → services → platforms → net → auth → db; jobs → services; alerts beside services, media beside platforms.
  below('server/jobs', ['server/routes']),
  below(['server/services', 'server/alerts'], ['server/routes', 'server/jobs']),
  below(['server/platforms', 'server/media'], ['server/routes', 'server/services', 'server/alerts', 'server/jobs']),
  // The queue's engine sits on the database alone: whatever a job does is the jobs' business.
  below('server/engine', [
    'server/routes',
    'server/services',
    'server/alerts',
    'server/jobs',
    'server/platforms',
    'server/media',
    'server/net',
    'server/auth',
  ]),
  below('server/net', ['server/routes', 'server/services', 'server/alerts', 'server/jobs', 'server/platforms', 'server/media']),
  below('server/auth', [
    'server/routes',
    'server/services',
    'server/alerts',
    'server/jobs',
    'server/platforms',
    'server/media',
    'server/net',
  ]),
  below('server/db', [
    'server/routes',
    'server/services',
    'server/alerts',
    'server/jobs',
    'server/engine',
    'server/platforms',
    'server/media',
    'server/net',
    'server/auth',
  ]),
  below('server', ['src/components', 'src/screens', 'src/app.tsx', 'src/main.tsx']),
  // The sandbox stands in for the platforms' hosts in sandbox mode: only the roots mount it.
  {
    target: ['server/!(sandbox)/**', 'server/!(main|app|config).ts'],
    from: 'server/sandbox',
    message: 'Only the composition roots (server/main.ts, server/app.ts, server/config.ts) reach the sandbox.',
  },
];
const spaLayers = [
  // src/lib → src/machines → src/components → src/screens → src/app.tsx; the SPA never reaches into the server.
  below('src', ['server']),
  below('src/lib', ['src/machines', 'src/components', 'src/screens', 'src/app.tsx', 'src/main.tsx']),
  below('src/machines', ['src/components', 'src/screens', 'src/app.tsx', 'src/main.tsx']),
  below('src/components', ['src/screens', 'src/app.tsx', 'src/main.tsx']),
  below('src/screens', ['src/app.tsx', 'src/main.tsx']),
];

const wallClock = 'Take the time from the injected Clock (app.clock, the clock handed down) or the caller, not the wall clock.';
const wallClockSyntax = [
  { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: wallClock },
  { selector: "CallExpression[callee.name='Date']", message: wallClock },
  { selector: "CallExpression[callee.name='dayjs'][arguments.length=0]", message: wallClock },
];
/** The database's own clock in a statement: a test could not move it (issue 39). */
const sqlClock = "Pass the moment from the injected Clock as a parameter ($n), not the database's now() or current_timestamp.";
const sqlClockSyntax = [
  { selector: 'TemplateElement[value.raw=/\\b(now\\(\\)|current_timestamp|localtimestamp|clock_timestamp)/i]', message: sqlClock },
  { selector: 'Literal[value=/\\b(now\\(\\)|current_timestamp|localtimestamp|clock_timestamp)/i]', message: sqlClock },
];

/**
 * Generic code names no platform: it iterates the registry (src/lib/platforms) and reads a
 * platform's facts from its descriptor, or its server side from server/platforms/registry.ts.
 */
// Read from the descriptors' folder, so a platform added there is held to the rule without naming it here.
const platformIds = fs
  .readdirSync(new URL('./src/lib/platforms/', import.meta.url))
  .filter((file) => file.endsWith('.ts') && !['index.ts', 'descriptor.ts'].includes(file))
  .map((file) => file.slice(0, -'.ts'.length));
const platformId = `Literal[value=/^(${platformIds.join('|')})$/]`;
const platformNamed =
  "Iterate the registry (src/lib/platforms) and read the platform's descriptor or server side instead of naming a platform.";
const platformSyntax = [
  { selector: `BinaryExpression[operator=/^[!=]==?$/] > ${platformId}`, message: platformNamed },
  { selector: `SwitchCase > ${platformId}.test`, message: platformNamed },
  { selector: `ArrayExpression:has(> ${platformId} ~ ${platformId})`, message: platformNamed },
];
/**
 * A route parses, checks and calls a service: the SQL and the typed queries it needs live in a service
 * named for what it does (server/services, server/auth), so a route never runs a statement of its own (issue 39).
 */
const routeSql = 'A route runs no SQL: move the statement into a service (server/services, server/auth) named for what it does.';
const routeQuery =
  'A route runs no query: move it, with its transaction, into a service (server/services, server/auth) named for what it does.';
const queryMethod = 'callee.property.name=/^(select|insert|update|delete)$/';
const routeSqlSyntax = [
  { selector: 'CallExpression[callee.property.name=/^(sql|prepared|execute)$/]', message: routeSql },
  { selector: 'CallExpression[callee.name=/^(sql|run)$/]', message: routeSql },
  { selector: "MemberExpression[property.name='toSQL']", message: routeSql },
  // Typed queries too: Drizzle's `db.orm`, a transaction, a query on a database or transaction
  // object (`db.select(`, `tx.update(`, `app.db.delete(`); Fastify's `app.delete(` is none of them.
  { selector: "MemberExpression[property.name='orm']", message: routeQuery },
  { selector: "CallExpression[callee.property.name='transaction']", message: routeQuery },
  { selector: `CallExpression[${queryMethod}][callee.object.name=/^(db|tx|trx|orm|database)$/]`, message: routeQuery },
  { selector: `CallExpression[${queryMethod}][callee.object.property.name='db']`, message: routeQuery },
];
const routeImports = {
  patterns: [
    { regex: '^react(-dom)?(/|$)', message: 'The server never imports React.' },
    { regex: '^drizzle-orm(/|$)|/db/schema(/|$)', message: routeQuery },
  ],
};
/** Where a platform is named: its own modules, the registries, the sandbox that emulates each one, and the shared descriptor's type. */
const platformFolders = [
  'src/lib/platforms/**',
  ...platformIds.map((id) => `server/platforms/${id}/**`),
  'server/platforms/registry.ts',
  'server/sandbox/**',
];

export default tseslint.config(
  { ignores: ['dist/', 'data/', 'coverage/', 'reports/', '.stryker-tmp/', 'test-results/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // Raw SQL (`db.sql`) answers untyped rows by design, and the server, its tests and the benchmarks
    // read them; typed queries go through Drizzle. Their `any`s are reported, not refused.
    files: ['server/**/*.ts', 'tests/server/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'warn' },
  },
  {
    files: ['src/**/*.{ts,tsx}', 'tests/screens/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    files: ['src/**/*.tsx'],
    ...jsxA11y.flatConfigs.recommended,
  },
  {
    files: ['server/**/*.ts', 'src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver': undefined,
      'import-x/resolver-next': [createTypeScriptImportResolver()],
    },
    rules: {
      // Type-only imports are left out: they vanish at run time.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': ['error', { zones: [...serverLayers, ...spaLayers] }],
    },
  },
  {
    files: ['server/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '^react(-dom)?(/|$)', message: 'The server never imports React.' }] }],
    },
  },
  {
    // The server goes by one injected Clock (server/clock.ts), so tests move time instead of waiting
    // for it; a wall-clock read in a decision is a test that breaks on some future day (issue 44).
    // src/lib is shared with the server, so it takes the moment from its caller too. A duration for
    // a log is measured with performance.now(), which says nothing of the date.
    files: ['server/**/*.ts', 'src/lib/**/*.ts'],
    rules: {
      'no-restricted-properties': ['error', { object: 'Date', property: 'now', message: wallClock }],
      'no-restricted-syntax': ['error', ...wallClockSyntax, ...platformSyntax, ...sqlClockSyntax],
    },
  },
  {
    // The queue's engine stands beside pg-boss's tables, whose start_after and started_on pg-boss
    // judges and stamps by the database's now(), and weighs heartbeats from several hosts by that one
    // clock: docs/testing.md.
    files: ['server/engine/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', ...wallClockSyntax, ...platformSyntax] },
  },
  {
    files: ['server/routes/**/*.ts'],
    rules: {
      'no-restricted-syntax': ['error', ...wallClockSyntax, ...platformSyntax, ...sqlClockSyntax, ...routeSqlSyntax],
      'no-restricted-imports': ['error', routeImports],
    },
  },
  {
    // The SPA's other layers take no clock rule; they name no platform either (issue 39).
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/lib/**'],
    rules: { 'no-restricted-syntax': ['error', ...platformSyntax] },
  },
  {
    files: platformFolders,
    rules: { 'no-restricted-syntax': ['error', ...wallClockSyntax, ...sqlClockSyntax] },
  },
  {
    files: ['server/clock.ts'],
    rules: { 'no-restricted-properties': 'off', 'no-restricted-syntax': ['error', ...platformSyntax] },
  },
);
