import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import { Writable } from 'node:stream';
import fc from 'fast-check';
import pino from 'pino';
import type { InjectOptions, RouteOptions } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import type { PublishPayload } from '../../src/lib/contract';
import { kyivWallTime } from '../../src/lib/kyiv-time';
import { t } from '../../server/messages';
import { maxJsonDepth } from '../../server/json-body';
import { logRedactions, logSerializers } from '../../server/app';
import { isSandboxControl } from '../../server/sandbox/index';
import { buildAppOn, buildLiveApp, createApiToken, createUser, describeEachDatabase, type TestEnv } from './helpers';
import { emptyDatabase, keepRows } from './empty-database';
import { createAccount, emptyAccount, rememberedChoices, type TestUser } from './backoffice-fixtures';
import { kyivDay, option, publishPayload, renderedRequest } from './publishing-fixtures';
import { maxActiveApiTokens } from '../../server/auth/api-tokens';
import { loginThrottle, tokenThrottle } from '../../server/auth/login-throttle';
import { ManualClock } from './manual-clock';

/**
 * Every route of the route table, as an attacker would call it: wrong types, ids beyond the
 * integer range, NUL bytes, huge strings, unknown fields, broken JSON. Whatever comes in, the
 * answer is never a 5xx. Runs per database, with a few dozen requests per route. Then the classes
 * of input issue 29's adversary found guessed at instead of refused, each at every place of every
 * body it fits, each answered with a Ukrainian 400 that names the field. Once per database the
 * closing note counts the requests sent and what each class was answered.
 */

const runsPerRoute = 12;

const huge = 'x'.repeat(200_000);
/** The values that broke routes before they had schemas: out-of-range numbers, NUL bytes, huge texts. */
const boundaryValues: unknown[] = [
  2 ** 31,
  -(2 ** 31) - 1,
  1e20,
  Number.MAX_SAFE_INTEGER + 2,
  -1,
  0,
  1.5,
  '\u0000',
  'a\u0000b',
  '\u0007\u001b',
  '\uD800',
  '1e20',
  '2147483648',
  '9007199254740993',
  'NaN',
  '',
  ' ',
  '../../etc/passwd',
  "'; DROP TABLE users; --",
  huge,
];
const boundary = fc.constantFrom(...boundaryValues);
const hostileText = fc.oneof(
  { arbitrary: fc.constantFrom('\u0000', 'a\u0000b', '1e20', '-1', '2147483648', '', huge), weight: 2 },
  { arbitrary: fc.string({ maxLength: 12 }), weight: 1 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 12 }), weight: 1 },
);
const hostileNumber = fc.oneof(
  fc.integer({ min: -(2 ** 40), max: 2 ** 40 }),
  fc.double(),
  fc.constantFrom(2 ** 31, -(2 ** 31) - 1, 1e20, 1.5),
);
const hostileScalar = fc.oneof(
  { arbitrary: boundary, weight: 4 },
  { arbitrary: hostileText, weight: 1 },
  { arbitrary: hostileNumber, weight: 1 },
  { arbitrary: fc.oneof(fc.boolean(), fc.constant(null)), weight: 1 },
);
const hostileItem = fc.oneof(
  hostileScalar,
  fc.record(
    {
      id: hostileScalar,
      title: hostileScalar,
      value: hostileScalar,
      date: hostileScalar,
      account: fc.option(fc.record({ id: hostileScalar })),
    },
    { requiredKeys: [] },
  ),
);
const hostileValue = fc.oneof(
  { arbitrary: hostileScalar, weight: 4 },
  { arbitrary: fc.array(hostileItem, { maxLength: 3 }), weight: 1 },
  { arbitrary: fc.dictionary(fc.string({ maxLength: 5 }), hostileScalar, { maxKeys: 3 }), weight: 1 },
);

/** How a value reaches a query string: as text, objects as their JSON. */
const asQueryValue = (value: unknown) => (typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value));

/** A lone surrogate cannot be percent-encoded; it travels as the bytes a sloppy client would send. */
function encodePathSegment(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return '%ED%A0%80';
  }
}

/** A path segment: a real id now and then, so handlers run past the lookup, else anything. */
const pathValue = fc.oneof(
  fc.constantFrom('1', '2', '3', '%ED%A0%80', '%00', '%'),
  hostileText.map(encodePathSegment),
  hostileNumber.map(String),
);

/** Every path to a value inside `value`: objects' keys and arrays' items, down to the leaves. */
function leavesOf(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (value === null || typeof value !== 'object') return path.length > 0 ? [path] : [];
  const children = Array.isArray(value) ? value.map((item, index) => [index, item] as const) : Object.entries(value);
  return [...(path.length > 0 ? [path] : []), ...children.flatMap(([key, child]) => leavesOf(child, [...path, key]))];
}

function withValueAt(base: object, path: (string | number)[], value: unknown): object {
  const copy = structuredClone(base) as Record<string | number, unknown>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  parent[path[path.length - 1]!] = value;
  return copy;
}

interface Seed {
  idUpload: string;
  validBodies: Record<string, object>;
  /** Valid bodies of every route that takes one, for the adversary's classes. */
  classBodies: Record<string, object>;
  /** Switches Instagram on for the seeded profile: it needs no platform call before a post is queued. */
  instagramOn: () => Promise<unknown>;
  /** Writes the seeded videos' files again, as the seed wrote them: a route may have deleted them. */
  writeFiles: () => Promise<void>;
}

async function seed(env: TestEnv): Promise<Seed> {
  const owner = await createUser(env, 'operator');
  const account = await createAccount(env, owner, {
    isActiveYouTube: true,
    YouTubeAuthClientId: 'client',
    YouTubeAuthClientSecret: 'secret',
  });
  const request = await renderedRequest(env, owner.id, 1, 1000);
  await env.db.sql(`INSERT INTO tag_sets (user_id, name, tags) VALUES ($1, 'set', '{a}')`, [owner.id]);
  await env.db.sql(`INSERT INTO account_groups (user_id, name) VALUES ($1, 'group')`, [owner.id]);
  const publish = publishPayload(request, [account.id]);
  const slots = { from: '09:00', to: '22:00', minGapMinutes: 90, days: [1, 2, 3, 4, 5, 6, 7] };
  const validBodies: Record<string, object> = {
    'POST /api/auth/login': { login: 'operator', password: 'password123' },
    'POST /api/accounts/': emptyAccount,
    'PATCH /api/accounts/:id': emptyAccount,
    'PATCH /api/accounts/update-channel/:id': { description: 'text' },
    'PATCH /api/accounts/update-profile-inst/:id': { profileName: 'name', profileDescription: '' },
    'POST /api/accounts-group/': { name: 'g', accounts: [option(account.id)] },
    'PATCH /api/accounts-group/:id': { name: 'g', accounts: [option(account.id)] },
    'POST /api/tags/': { name: 't', tags: ['a'] },
    'PATCH /api/tags/:id': { name: 't', tags: ['a'] },
    'POST /api/users/': { login: 'newcomer', password: 'password1', password_confirmation: 'password1' },
    'PATCH /api/users/:id': { login: 'renamed', password: 'password1', password_confirmation: 'password1' },
    'POST /api/upload-video/:idUpload': publish,
    'PATCH /api/upload-video/:idUpload': { title: 't', description: 'd', tags: ['a'] },
    'POST /api/upload-video/upload': { videoId: request.videos[0]!.id, youTubeId: request.idUpload },
    'PUT /api/accounts/:id/slots': slots,
    'PUT /api/accounts-group/:id/slots': slots,
    'POST /api/upload-video/:idUpload/spread': {
      from: kyivWallTime(Date.now()).slice(0, 10),
      to: kyivWallTime(Date.now() + 6 * 86_400_000).slice(0, 10),
      accounts: [{ id: account.id }],
      inYouTube: true,
      inTikTok: false,
      inInstagram: false,
      video: [{ id: request.videos[0]!.id }],
    },
    'POST /api/tokens/': { name: 'reports', scope: 'read', expiresInDays: 30 },
    'POST /api/webhooks/': { url: 'http://127.0.0.1:9/hooks', events: ['post.failed'], secret: 'a-secret-of-enough-length' },
    'PATCH /api/webhooks/:id': { url: 'http://127.0.0.1:9/hooks', events: ['post.failed'] },
    'PUT /api/telegram/': { events: ['post.failed'], digest: true },
    'POST /api/plans/:planId/commit': { allowDuplicates: true },
  };
  const choices = { ...rememberedChoices, instagram: { shareToFeed: true, thumbOffset: 0 } };
  return {
    idUpload: request.idUpload,
    validBodies,
    classBodies: {
      ...validBodies,
      'POST /api/auth/refresh': { refreshToken: 'token' },
      'POST /api/auth/logout': { refreshToken: 'token' },
      'POST /api/auth/password': { current_password: 'password123', password: 'password1', password_confirmation: 'password1' },
      'POST /api/upload-video/:idUpload': { ...publish, options: choices },
      'PATCH /api/upload-video/:idUpload/video/:videoId': { date: '2031-01-01T10:00', accountId: account.id },
      'PUT /api/posting-rules/:id': choices,
    },
    instagramOn: () => env.db.sql('UPDATE accounts SET is_active_instagram = true WHERE id = $1', [account.id]),
    writeFiles: async () => {
      const scratch = await env.media.storage.scratch();
      try {
        for (const video of request.videos) {
          const file = scratch.file(`${video.id}.mp4`);
          await fs.writeFile(file, crypto.randomBytes(video.size));
          await env.media.storage.put(video.fileKey, file);
        }
      } finally {
        await scratch.dispose();
      }
    },
  };
}

const methodsOf = (route: RouteOptions) =>
  (Array.isArray(route.method) ? route.method : [route.method]).filter((method) => method !== 'HEAD');

interface Tally {
  failures: string[];
  statuses: Map<number, number>;
}

const count = (statuses: Map<number, number>, status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1);

/** One request of an adversary's class and what its answer's message must be, or say. */
interface ClassCase {
  method: string;
  url: string;
  payload: string;
  /** The message exactly, or the field the one message must name. */
  expected: { message: string | string[] } | { names: string };
}

const fieldOf = (path: (string | number)[]) => path.join('.');
const deepBody = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;

/** Every place of a valid body as the classes use it: its objects (the body itself first), its texts and its booleans. */
function placesOf(base: object) {
  const leaves = leavesOf(base);
  const at = (path: (string | number)[]) => path.reduce<unknown>((value, key) => (value as Record<string | number, unknown>)[key], base);
  return {
    objects: [
      [],
      ...leaves.filter((path) => {
        const value = at(path);
        return typeof value === 'object' && value !== null && !Array.isArray(value);
      }),
    ],
    texts: leaves.filter((path) => typeof at(path) === 'string'),
    booleans: leaves.filter((path) => typeof at(path) === 'boolean'),
  };
}

/**
 * Issue 29's classes at every place of one route's valid body: a boolean sent as "true" or 1, a
 * key the schema does not declare in each object, a lone surrogate and a control character in
 * each text. Each is answered with one message that names the field.
 */
function fieldClasses(method: string, url: string, base: object): Record<string, ClassCase[]> {
  const places = placesOf(base);
  const at = (path: (string | number)[], value: unknown, expected: ClassCase['expected']): ClassCase => ({
    method,
    url,
    payload: JSON.stringify(withValueAt(base, path, value)),
    expected,
  });
  const notBoolean = (path: (string | number)[]) => ({ message: [t.validation.wrongType(fieldOf(path), t.validation.types.boolean!)] });
  const named = (path: (string | number)[]) => ({ names: fieldOf(path) });
  return {
    'coerced booleans': places.booleans.flatMap((path) => [at(path, 'true', notBoolean(path)), at(path, 1, notBoolean(path))]),
    'unknown keys': places.objects.map((path) =>
      at([...path, 'foo'], true, { message: [t.validation.unknownField(fieldOf([...path, 'foo']))] }),
    ),
    'lone surrogates': places.texts.map((path) => at(path, 'a\ud800b', named(path))),
    'control characters': places.texts.flatMap((path) => [at(path, 'a\u0000b', named(path)), at(path, '\u001b[2J', named(path))]),
  };
}

/** A plan id no preview has: a confirm with a valid body reaches the handler and finds nothing (404). */
const unknownPlanId = '00000000-0000-4000-8000-000000000000';

describeEachDatabase(
  'hostile input on every route',
  (env) => {
    const routesThat = (read: boolean) =>
      env()
        .app.routeTable.flatMap((route) => methodsOf(route).map((method) => ({ method, route })))
        .filter(({ method }) => (method === 'GET') === read);

    /** A few dozen hostile calls to one route, then each boundary value at each place of its valid body. */
    async function hammer(method: string, route: RouteOptions, admin: TestUser, { idUpload, validBodies }: Seed, tally: Tally) {
      const { failures, statuses } = tally;
      const key = `${method} ${route.url}`;
      const base = validBodies[key] ?? {};
      const schema = (route.schema ?? {}) as { body?: { properties?: object }; querystring?: { properties?: object } };
      const bodyKeys = [...new Set([...Object.keys(schema.body?.properties ?? {}), ...Object.keys(base)])];
      const queryKeys = Object.keys(schema.querystring?.properties ?? {});

      const request = fc.record({
        params: fc.array(pathValue, { minLength: 3, maxLength: 3 }),
        realIdUpload: fc.boolean(),
        query: fc.record(Object.fromEntries([...queryKeys, 'unknown'].map((name) => [name, hostileValue.map(asQueryValue)])), {
          requiredKeys: [],
        }),
        body: fc.oneof(
          // The valid body with one value gone wrong, however deep (an id inside a list, say),
          // reaches the handler and the database far more often than a wholly hostile one.
          {
            arbitrary: fc
              .tuple(fc.constantFrom(...leavesOf(base), ['unknownField']), hostileValue)
              .map(([path, value]) => withValueAt(base, path, value)),
            weight: 4,
          },
          fc
            .record(Object.fromEntries([...bodyKeys, 'unknownField'].map((name) => [name, hostileValue])), { requiredKeys: [] })
            .map((fields) => ({ ...base, ...fields })),
          hostileValue,
        ),
        rawBody: fc.option(fc.constantFrom('{', 'null', '"text"', '[1,2', '\u0000', `{"login":"${'a'.repeat(10)}\\u0000"}`), { freq: 4 }),
        anonymous: fc.integer({ min: 0, max: 5 }).map((draw) => draw === 0),
      });

      const send = async (url: string, headers: Record<string, string>, payload: string | undefined) => {
        const response = await env().app.inject({
          method: method as 'GET',
          url,
          headers: { ...headers, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
          ...(payload === undefined ? {} : { payload }),
        });
        count(statuses, response.statusCode);
        if (response.statusCode >= 500)
          failures.push(`${method} ${url.slice(0, 300)} ${payload?.slice(0, 300) ?? ''} → ${response.statusCode}`);
        return response.statusCode < 500;
      };
      const withBody = method !== 'GET' && method !== 'DELETE';

      await fc
        .assert(
          fc.asyncProperty(request, async (input) => {
            let position = 0;
            const url = route.url
              .replace(/:idUpload/g, () => (input.realIdUpload ? idUpload : input.params[position++ % 3]!))
              .replace(/:[A-Za-z]+/g, () => input.params[position++ % 3]!)
              .replace(/\*$/, () => input.params[position++ % 3]!);
            const query = new URLSearchParams(input.query as Record<string, string>).toString();
            return send(
              query ? `${url}?${query}` : url,
              input.anonymous ? {} : admin.headers,
              withBody ? (input.rawBody ?? JSON.stringify(input.body)) : undefined,
            );
          }),
          { numRuns: runsPerRoute, endOnFailure: true },
        )
        .catch((error: Error) => {
          if (failures.length === 0) failures.push(`${key}: ${error.message.slice(0, 500)}`);
        });

      // Then every value that broke a route before it had a schema, at every place of the valid
      // body in turn, on rows that exist (the operator's, for the user routes, so the admin's own
      // session survives a new password).
      if (withBody && Object.keys(base).length > 0) {
        const url = route.url.replace(/:idUpload/g, idUpload).replace(/:id\b/g, route.url.startsWith('/api/users/') ? '2' : '1');
        for (const path of leavesOf(base)) {
          for (const value of boundaryValues) await send(url, admin.headers, JSON.stringify(withValueAt(base, path, value)));
        }
      }
    }

    /** What each class of request was answered, by status, for the closing note. */
    const answers = new Map<string, Map<number, number>>();
    afterAll(() => {
      const sum = (statuses: Map<number, number>, which = (_status: number) => true) =>
        [...statuses].filter(([status]) => which(status)).reduce((total, [, times]) => total + times, 0);
      const all = [...answers.values()];
      const lines = [...answers].map(([name, statuses]) => {
        const byStatus = [...statuses].sort(([a], [b]) => a - b).map(([status, times]) => `${status}×${times}`);
        return `  ${name}: ${sum(statuses)} → ${byStatus.join(', ')}`;
      });
      const total = all.reduce((requests, statuses) => requests + sum(statuses), 0);
      const serverErrors = all.reduce((requests, statuses) => requests + sum(statuses, (status) => status >= 500), 0);
      console.log(`hostile input [${env().kind}]: ${total} requests, ${serverErrors} answered 5xx\n${lines.join('\n')}`);
    });

    function expectNo5xx(name: string, tally: Tally, routes: number) {
      expect(tally.failures).toEqual([]);
      const answered = [...tally.statuses.values()].reduce((sum, count) => sum + count, 0);
      expect(answered).toBeGreaterThanOrEqual(routes * runsPerRoute);
      // Handlers ran past validation too, not only the schemas' refusals.
      expect([...tally.statuses.keys()].filter((status) => status < 300).length).toBeGreaterThan(0);
      answers.set(`${name} (${routes} routes)`, tally.statuses);
    }

    // The route table is the one the app serves: it holds the API, the health checks and the sandbox.
    // A read changes nothing another read depends on, so the reads share one seeded database.
    it('never answers 5xx on a route that reads, all on one seeded database', async () => {
      const routes = routesThat(true);
      expect(routes.length).toBeGreaterThan(20);
      const tally: Tally = { failures: [], statuses: new Map() };
      await emptyDatabase(env().db);
      const admin = await createUser(env(), 'chief', { role: 'admin' });
      const seeded = await seed(env());
      for (const { method, route } of routes) await hammer(method, route, admin, seeded, tally);
      expectNo5xx('fuzz, reads', tally, routes.length);
    });

    // A write may delete the seeded rows or files, or end the admin's session: each starts from a
    // fresh seed. The seed is made once, through the routes; before each route its rows are put back
    // from a copy (jobs emptied, files written again), which takes milliseconds where a TRUNCATE
    // and a new seed took half a second, 81 times over.
    it('never answers 5xx on a route that writes, each on a freshly seeded database', async () => {
      const routes = routesThat(false);
      expect(routes.length).toBeGreaterThan(40);
      const tally: Tally = { failures: [], statuses: new Map() };
      await emptyDatabase(env().db);
      const admin = await createUser(env(), 'chief', { role: 'admin' });
      const seeded = await seed(env());
      const kept = await keepRows(env().db);
      try {
        for (const { method, route } of routes) {
          await kept.restore();
          await env().db.sql('DELETE FROM pgboss.job', []);
          await seeded.writeFiles();
          await hammer(method, route, admin, seeded, tally);
        }
      } finally {
        await kept.drop();
      }
      expectNo5xx('fuzz, writes', tally, routes.length);
    });

    // Issue 29's classes, all refused by the schema or the posting rules before anything is stored,
    // so they share one seeded database.
    it("answers each class of input issue 29's adversary found guessed at with a Ukrainian 400 naming the field", async () => {
      await emptyDatabase(env().db);
      const admin = await createUser(env(), 'chief', { role: 'admin' });
      const seeded = await seed(env());
      const { idUpload, classBodies } = seeded;
      const urlOf = (route: RouteOptions) =>
        route.url
          .replace(/:idUpload/g, idUpload)
          .replace(/:videoId/g, '1')
          .replace(/:planId/g, unknownPlanId)
          .replace(/:id\b/g, '1');
      const writes = routesThat(false).filter(({ method, route }) => route.url.startsWith('/api/') && method !== 'DELETE');
      const withBody = writes.filter(({ route }) => (route.schema as { body?: unknown } | undefined)?.body);
      // Every route that takes a JSON body has a valid one here, so no route escapes the classes.
      expect(withBody.map(({ method, route }) => `${method} ${route.url}`).filter((key) => !(key in classBodies))).toEqual([]);

      const classes = new Map<string, ClassCase[]>();
      const add = (name: string, cases: ClassCase[]) => classes.set(name, [...(classes.get(name) ?? []), ...cases]);
      for (const { method, route } of withBody) {
        for (const [name, cases] of Object.entries(fieldClasses(method, urlOf(route), classBodies[`${method} ${route.url}`]!)))
          add(name, cases);
      }
      const publishUrl = `/api/upload-video/${idUpload}`;
      const publish = classBodies['POST /api/upload-video/:idUpload'] as PublishPayload;
      add('unknown keys', [
        {
          method: 'POST',
          url: publishUrl,
          payload: JSON.stringify({ ...publish, options: { vimeo: {} } }),
          expected: { message: [t.validation.unknownField('options.vimeo')] },
        },
      ]);
      add(
        'deep nesting',
        writes.map(({ method, route }) => ({
          method,
          url: urlOf(route),
          payload: deepBody,
          expected: { message: t.server.jsonTooDeep(maxJsonDepth) },
        })),
      );
      const hashtags = Array.from({ length: 30 }, (_, index) => `tag${index}`);
      const twelve = Array.from({ length: 12 }, (_, index) => `#опис${index}`).join(' ');
      add('over-limit hashtags', [
        {
          method: 'POST',
          url: publishUrl,
          payload: JSON.stringify({ ...publish, inInstagram: true, description: twelve, tags: hashtags }),
          expected: { message: t.postingRules.tooManyHashtags(42, 30) },
        },
        {
          method: 'POST',
          url: publishUrl,
          payload: JSON.stringify({ ...publish, inInstagram: true, title: '#a #b', tags: hashtags.slice(0, 29) }),
          expected: { message: t.postingRules.tooManyHashtags(31, 30) },
        },
      ]);
      const youtube = (change: object, message: string | string[]): ClassCase => ({
        method: 'POST',
        url: publishUrl,
        payload: JSON.stringify({ ...publish, ...change }),
        expected: { message },
      });
      add('YouTube characters and category', [
        youtube({ title: 'Випуск <1>' }, t.postingRules.angleBrackets.title),
        youtube({ description: 'a > b' }, t.postingRules.angleBrackets.description),
        youtube({ options: { ...publish.options, youtube: { selfDeclaredMadeForKids: false, categoryId: '999' } } }, [
          t.validation.invalidValue('options.youtube.categoryId'),
        ]),
        {
          method: 'PUT',
          url: '/api/posting-rules/1',
          payload: JSON.stringify({ youtube: { categoryId: '999' } }),
          expected: { message: [t.validation.invalidValue('youtube.categoryId')] },
        },
      ]);

      await seeded.instagramOn();
      const failures: string[] = [];
      for (const [name, cases] of classes) {
        const statuses = new Map<number, number>();
        for (const { method, url, payload, expected } of cases) {
          const response = await env().app.inject({
            method: method as 'POST',
            url,
            headers: { ...admin.headers, 'content-type': 'application/json' },
            payload,
          });
          count(statuses, response.statusCode);
          const body = response.json() as { error: string; message: string | string[] };
          const right =
            response.statusCode === 400 &&
            body.error === t.server.statusNames[400] &&
            ('names' in expected
              ? Array.isArray(body.message) && body.message.length === 1 && body.message[0]!.includes(`«${expected.names}»`)
              : JSON.stringify(body.message) === JSON.stringify(expected.message));
          if (!right)
            failures.push(`${name}: ${method} ${url} ${payload.slice(0, 160)} → ${response.statusCode} ${response.body.slice(0, 300)}`);
        }
        answers.set(`${name} (${cases.length})`, statuses);
      }
      expect(failures).toEqual([]);
      const { rows } = await env().db.sql('SELECT count(*)::int AS posts FROM video_posts', []);
      expect(rows[0].posts).toBe(0);

      // The same body with nothing wrong is taken: each refusal above was the one value's.
      const taken = await env().app.inject({ method: 'POST', url: publishUrl, headers: admin.headers, payload: publish });
      expect(taken.statusCode, taken.body).toBe(200);
      // The edit of the published set refuses what YouTube would, as the publish did.
      const edit = await env().app.inject({
        method: 'PATCH',
        url: publishUrl,
        headers: admin.headers,
        payload: { title: 'Випуск <2>', description: '', tags: ['a'] },
      });
      expect(edit.json().message).toBe(t.postingRules.angleBrackets.title);
      answers.set(
        'valid publish, then an edit YouTube refuses (2)',
        new Map([
          [taken.statusCode, 1],
          [edit.statusCode, 1],
        ]),
      );
    });
  },
  { queue: 'send' },
);

// ---------------------------------------------------------------------------------------------
// Issue 38.1 and 38.5 (the account and the token throttle): a leaked token never takes an account,
// guesses stay limited and the throttle table bounded whatever the headers, another user's
// notification is not found, and a user holds at most 20 active tokens.
// ---------------------------------------------------------------------------------------------
describe('issue 38: a token never takes an account', () => {
  const clock = new ManualClock();
  const guess = () => ({ authorization: `Bearer sho_${crypto.randomBytes(32).toString('base64url')}` });

  describeEachDatabase(
    'a token never takes an account, and guessing stays bounded',
    (env) => {
      /** What each case was answered, by status, for the closing note. */
      const answers = new Map<string, Map<number, number>>();
      const send = async (name: string, options: InjectOptions, app = env().app) => {
        const response = await app.inject(options);
        const statuses = answers.get(name) ?? new Map<number, number>();
        answers.set(name, count(statuses, response.statusCode));
        return response;
      };
      afterAll(() => {
        const lines = [...answers].map(([name, statuses]) => {
          const byStatus = [...statuses].sort(([a], [b]) => a - b).map(([status, times]) => `${status}×${times}`);
          return `  ${name}: ${byStatus.join(', ')}`;
        });
        const total = [...answers.values()].flatMap((statuses) => [...statuses.values()]).reduce((sum, times) => sum + times, 0);
        console.log(`issue 38 [${env().kind}]: ${total} requests\n${lines.join('\n')}`);
      });

      it("refuses a leaked admin token every way into the admin's account, and the admin's session a password without the current one", async () => {
        const admin = await createUser(env(), 'chief', { role: 'admin', password: 'first-pass' });
        const operator = await createUser(env(), 'operator');
        const leaked = await createApiToken(env(), admin, 'admin');
        const takeOver = { password: 'taken-over', password_confirmation: 'taken-over' };
        const attempts: { method: 'POST' | 'PATCH' | 'DELETE'; url: string; payload?: object }[] = [
          { method: 'PATCH', url: `/api/users/${admin.id}`, payload: { login: 'chief', ...takeOver } },
          { method: 'PATCH', url: `/api/users/${operator.id}`, payload: { login: 'operator', ...takeOver } },
          { method: 'POST', url: '/api/auth/password', payload: { current_password: 'first-pass', ...takeOver } },
          { method: 'POST', url: '/api/users', payload: { login: 'intruder', ...takeOver } },
          { method: 'DELETE', url: `/api/users/${operator.id}` },
          { method: 'POST', url: '/api/tokens', payload: { name: 'successor', scope: 'admin', expiresInDays: 365 } },
          { method: 'DELETE', url: `/api/tokens/${leaked.id}` },
        ];
        for (const attempt of attempts) {
          const response = await send('a leaked admin token changes a user, a password or a token', {
            ...attempt,
            headers: leaked.headers,
          });
          expect([attempt.url, response.statusCode, response.json().message]).toEqual([attempt.url, 403, t.server.apiTokenNeedsSession]);
        }
        const ownPassword = await send("the admin's session sets its own password without the current one", {
          method: 'PATCH',
          url: `/api/users/${admin.id}`,
          headers: admin.headers,
          payload: { login: 'chief', ...takeOver },
        });
        expect([ownPassword.statusCode, ownPassword.json().message]).toEqual([403, t.users.ownPasswordInSettings]);
        const signIn = (password: string) =>
          send('the admin signs in afterwards', { method: 'POST', url: '/api/auth/login', payload: { login: 'chief', password } });
        expect((await signIn('taken-over')).statusCode).toBe(401);
        expect((await signIn('first-pass')).statusCode).toBe(200);
      });

      it('ends the sessions and tokens of a user whose password an admin resets', async () => {
        const admin = await createUser(env(), 'chief', { role: 'admin' });
        const victim = await createUser(env(), 'operator');
        const token = await createApiToken(env(), victim, 'publish');
        const reset = await send('an admin resets a password', {
          method: 'PATCH',
          url: `/api/users/${victim.id}`,
          headers: admin.headers,
          payload: { login: 'operator', password: 'reset-pass', password_confirmation: 'reset-pass' },
        });
        expect(reset.statusCode).toBe(200);
        for (const headers of [victim.headers, token.headers]) {
          expect((await send("the reset user's old session and token", { url: '/api/auth/me', headers })).statusCode).toBe(401);
        }
      });

      it('keeps the token limit and a bounded throttle table under forged X-Forwarded-For, and lets a token that worked in', async () => {
        const operator = await createUser(env(), 'operator');
        const working = await createApiToken(env(), operator, 'read');
        const app = await buildAppOn(env(), { trustProxy: 1, clock });
        try {
          const forgedFrom = (forged: number, headers: Record<string, string>) =>
            send(
              'guesses with a forged X-Forwarded-For each',
              {
                url: '/api/auth/me',
                remoteAddress: '10.0.0.2',
                headers: { ...headers, 'x-forwarded-for': `198.18.${forged >> 8}.${forged & 255}` },
              },
              app,
            );
          expect((await forgedFrom(0, working.headers)).statusCode).toBe(200);
          // Bytes no real header carries (inject lets them through) make a guess as any other.
          expect((await forgedFrom(1, { authorization: 'Bearer sho_\u0000\u001b[2J\ud800' })).statusCode).toBe(401);
          let counted = 1;
          for (let forged = 2; forged <= tokenThrottle.maxGuessesEverywhere + 20; forged++) {
            if ((await forgedFrom(forged, guess())).statusCode === 401) counted++;
          }
          expect(counted).toBe(tokenThrottle.maxGuessesEverywhere);
          const { rows } = await env().db.sql(`SELECT count(*)::int AS rows FROM login_failures WHERE key LIKE 'token-%'`, []);
          expect(rows[0].rows).toBeLessThanOrEqual(2 * tokenThrottle.maxGuessesEverywhere + 1);
          // Whoever saw the working token's beginning tries its ends: the script goes on all the same.
          const known = working.token.slice(0, 'sho_'.length + tokenThrottle.prefixLength);
          const ending = {
            authorization: `Bearer ${known}${crypto.randomBytes(32).toString('base64url').slice(tokenThrottle.prefixLength)}`,
          };
          expect((await forgedFrom(9999, ending)).statusCode).toBe(429);
          expect((await forgedFrom(9999, working.headers)).statusCode).toBe(200);
        } finally {
          await clock.advance(loginThrottle.windowSeconds * 1000);
          await app.close();
        }
      });

      it("answers another user's notification as not found, and a 21st active token with a 409", async () => {
        const owner = await createUser(env(), 'owner');
        const other = await createUser(env(), 'other');
        await env().db.sql(`SELECT add_notification($1, 'sign_in_spray', NULL, NULL, NULL, 'owner')`, [owner.id]);
        const notice = (await env().db.sql('SELECT id FROM notifications WHERE user_id = $1', [owner.id])).rows[0].id;
        const marked = await send("another user's notification marked read", {
          method: 'POST',
          url: `/api/notifications/${notice}/read`,
          headers: other.headers,
        });
        expect(marked.statusCode).toBe(404);

        for (let index = 0; index < maxActiveApiTokens; index++) await createApiToken(env(), owner, 'read');
        const extra = await send('a 21st active token', {
          method: 'POST',
          url: '/api/tokens',
          headers: owner.headers,
          payload: { name: 'one more', scope: 'read', expiresInDays: 30 },
        });
        expect([extra.statusCode, extra.json().message]).toEqual([409, t.apiTokens.tooMany(maxActiveApiTokens)]);
      });
    },
    { clock },
  );
});

/*
 * Issue 38, "strict at every edge, round two": the proxies, outbound addresses, health check,
 * connection, log, JSON and date cases, each class answered as the issue asks. Self-contained:
 * its own suite, seed and closing note (`issue 38 edges [kind]`), which counts the requests each
 * class sent and what they were answered.
 */
describeEachDatabase(
  'hostile input at the edges (issue 38)',
  (env) => {
    const answers38 = new Map<string, Map<number, number>>();
    const tally38 = (name: string, status: number) => {
      const statuses = answers38.get(name) ?? new Map<number, number>();
      count(statuses, status);
      answers38.set(name, statuses);
    };
    afterAll(() => {
      const lines = [...answers38].map(([name, statuses]) => {
        const sent = [...statuses.values()].reduce((sum, times) => sum + times, 0);
        const byStatus = [...statuses].sort(([a], [b]) => a - b).map(([status, times]) => `${status}×${times}`);
        return `  ${name}: ${sent} → ${byStatus.join(', ')}`;
      });
      const total = [...answers38.values()].flatMap((statuses) => [...statuses.values()]).reduce((sum, times) => sum + times, 0);
      console.log(`issue 38 edges [${env().kind}]: ${total} requests\n${lines.join('\n')}`);
    });

    /** One request of a class, counted under its name. */
    async function send38(
      name: string,
      app: TestEnv['app'],
      request: { method?: string; url: string; headers?: Record<string, string>; payload?: string | object },
    ) {
      const response = await app.inject({ ...request, method: (request.method ?? 'GET') as 'GET' });
      tally38(name, response.statusCode);
      return response;
    }

    it('stores each proxy format people paste as one URL, and refuses anything else with a Ukrainian 400 naming the formats', async () => {
      const operator = await createUser(env(), 'operator');
      const save = (proxy: string) =>
        send38('proxy formats', env().app, {
          method: 'POST',
          url: '/api/accounts',
          headers: operator.headers,
          payload: { ...emptyAccount, proxy },
        });
      for (const [typed, shown] of [
        ['user:pass@127.0.0.1:3589', 'http://user@127.0.0.1:3589'],
        ['127.0.0.1:3589', 'http://127.0.0.1:3589'],
        ['127.0.0.1:3589:user:pass', 'http://user@127.0.0.1:3589'],
        ['http://user:pass@127.0.0.1:3589', 'http://user@127.0.0.1:3589'],
        ['https://Proxy.Example:8443/', 'https://proxy.example:8443'],
        ['socks5://u%40x:p@10.0.0.1:1080', 'socks5://u%40x@10.0.0.1:1080'],
        ['socks5h://user:pass@proxy.example:1080', 'socks5h://user@proxy.example:1080'],
        ['[::1]:8080:user:pass', 'http://user@[::1]:8080'],
      ]) {
        const saved = await save(typed!);
        expect([saved.statusCode, saved.json().proxy], typed).toEqual([201, shown]);
      }
      for (const typed of [
        '127.0.0.1:99999',
        '127.0.0.1:0',
        '127.0.0.1',
        'ftp://proxy.example:21',
        'socks4://proxy.example:1080',
        'http://proxy.example',
        'http://proxy.example:8080/path',
        'host:1:user',
        'host:1:user:pass:more',
        'user:pass@host',
        'http://:pass@host:1',
        'host :1',
        'host:1:user:pa ss',
      ]) {
        const refused = await save(typed);
        expect([refused.statusCode, refused.json().message], typed.slice(0, 40)).toEqual([400, [t.accountForm.proxyInvalid]]);
      }
    });

    it('refuses in live mode every webhook address whose IPv6 form carries a private IPv4 address', async () => {
      const owner = await createUser(env(), 'owner');
      const live = await buildLiveApp(env());
      try {
        for (const url of [
          'https://[::127.0.0.1]/hook',
          'https://[::7f00:1]/hook',
          'https://[::ffff:127.0.0.1]/hook',
          'https://[::ffff:a9fe:a9fe]/hook',
          'https://[::ffff:0:10.0.0.1]/hook',
          'https://[64:ff9b::169.254.169.254]/hook',
          'https://[64:ff9b::c0a8:1]/hook',
          'https://[64:ff9b:1::808:808]/hook',
          'https://[2002:7f00:1::1]/hook',
          'https://[2002:a9fe:a9fe::1]/hook',
          'https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/hook',
        ]) {
          const refused = await send38('IPv4 inside IPv6 webhook targets, live', live, {
            method: 'POST',
            url: '/api/webhooks',
            headers: owner.headers,
            payload: { url, events: ['post.failed'], secret: 'a-secret-of-enough-length' },
          });
          expect([refused.statusCode, refused.json().message], url).toEqual([400, t.webhooks.addressRefused]);
        }
      } finally {
        await live.close();
      }
    });

    it('tells an anonymous /readyz only ready or not; the engine figures go to an admin', async () => {
      const admin = await createUser(env(), 'chief', { role: 'admin' });
      const operator = await createUser(env(), 'operator');
      const anonymous = await send38('/readyz', env().app, { url: '/readyz' });
      expect(anonymous.json()).toEqual({ status: 'ok' });
      expect((await send38('/readyz', env().app, { url: '/readyz', headers: operator.headers })).statusCode).toBe(403);
      expect((await send38('/readyz', env().app, { url: '/readyz', headers: { authorization: 'Bearer sho_guess' } })).statusCode).toBe(401);
      expect((await send38('/readyz', env().app, { url: '/readyz', headers: admin.headers })).json()).toMatchObject({
        status: 'ok',
        engine: { liveWorkers: expect.any(Number) },
      });
    });

    it('says Connection: close when it refuses a body before reading it, and the next request gets a new connection', async () => {
      const operator = await createUser(env(), 'operator');
      const origin = await env().app.listen({ port: 0, host: '127.0.0.1' });
      const exchange = (headers: Record<string, string>, body: Buffer) =>
        new Promise<{ status: number; connection: string | undefined; next: number }>((resolve, reject) => {
          const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
          const first = http.request(
            `${origin}/api/tags`,
            { method: 'POST', agent, headers: { ...operator.headers, ...headers, 'content-length': String(body.length) } },
            (answer) => {
              answer.resume();
              answer.on('end', () => {
                tally38('refused before the body was read (real socket)', answer.statusCode!);
                http
                  .get(`${origin}/healthz`, { agent }, (next) => {
                    next.resume();
                    tally38('refused before the body was read (real socket)', next.statusCode!);
                    agent.destroy();
                    resolve({ status: answer.statusCode!, connection: answer.headers.connection, next: next.statusCode! });
                  })
                  .on('error', reject);
              });
            },
          );
          first.on('error', () => undefined);
          first.end(body);
        });
      const overLimit = Buffer.from(JSON.stringify({ name: 'x'.repeat(4 * 1024 ** 2), tags: ['a'] }));
      expect(await exchange({ 'content-type': 'application/json' }, overLimit)).toEqual({ status: 413, connection: 'close', next: 200 });
      expect(await exchange({ 'content-type': 'application/json; charset=latin1' }, overLimit)).toEqual({
        status: 415,
        connection: 'close',
        next: 200,
      });
    });

    it('keeps no token of a URL in the request log or the sandbox’s request log', async () => {
      const admin = await createUser(env(), 'chief', { role: 'admin' });
      let logs = '';
      const logger = pino(
        { level: 'info', redact: logRedactions, serializers: logSerializers },
        new Writable({
          write(chunk, _encoding, done) {
            logs += chunk;
            done();
          },
        }),
      );
      const logged = await buildAppOn(env(), { logger });
      try {
        const secrets = ['upload-secret-1', 'mine-secret-2', 'bare-secret-3', 'access-secret-4', 'page-secret-5', 'code-secret-6'];
        const query = `upload_token=${secrets[0]}&my_token=${secrets[1]}&token=${secrets[2]}&access_token=${secrets[3]}&pageAccessTOKEN=${secrets[4]}&code=${secrets[5]}`;
        for (const url of [
          `/api/accounts?${query}`,
          `/api/nowhere?${query}`,
          `/sandbox/open-upload.tiktokapis.com/video/?upload_id=v1&${query}`,
          `/sandbox/graph.facebook.com/v21.0/me?fields=id&${query}`,
        ]) {
          await send38('*token* query parameters, logged', logged, { method: 'PUT', url, headers: admin.headers, payload: {} });
          await send38('*token* query parameters, logged', logged, { url, headers: admin.headers });
        }
        const sandboxLog = JSON.stringify(logged.sandbox!.requests);
        for (const secret of secrets) {
          expect(logs, secret).not.toContain(secret);
          expect(sandboxLog, secret).not.toContain(secret);
        }
        expect(logs).toContain('upload_token=[Redacted]&my_token=[Redacted]&token=[Redacted]&access_token=[Redacted]');
        expect(sandboxLog).toContain('upload_id=v1&upload_token=[Redacted]');
      } finally {
        await logged.close();
      }
    });

    it('refuses on every route that takes JSON a name given twice (400) and any charset but UTF-8 (415)', async () => {
      const admin = await createUser(env(), 'chief', { role: 'admin' });
      const { idUpload, classBodies } = await seed(env());
      const withBody = env()
        .app.routeTable.flatMap((route) => methodsOf(route).map((method) => ({ method, route })))
        .filter(({ route }) => route.url.startsWith('/api/') && (route.schema as { body?: unknown } | undefined)?.body);
      expect(withBody.length).toBeGreaterThan(20);
      for (const { method, route } of withBody) {
        const body = classBodies[`${method} ${route.url}`] as Record<string, unknown>;
        expect(body, `${method} ${route.url}`).toBeDefined();
        const url = route.url
          .replace(/:idUpload/g, idUpload)
          .replace(/:videoId/g, '1')
          .replace(/:planId/g, unknownPlanId)
          .replace(/:id\b/g, '1');
        const [name, value] = Object.entries(body)[0]!;
        const twice = `{${JSON.stringify(name)}:${JSON.stringify(value)},${JSON.stringify(body).slice(1)}`;
        const json = { ...admin.headers, 'content-type': 'application/json' };
        const refused = await send38('a JSON name given twice', env().app, { method, url, headers: json, payload: twice });
        expect([refused.statusCode, refused.json().message], `${method} ${url}`).toEqual([400, t.server.duplicateJsonName(name)]);
        const latin1 = await send38('a charset other than UTF-8', env().app, {
          method,
          url,
          headers: { ...json, 'content-type': 'application/json; charset=latin1' },
          payload: JSON.stringify(body),
        });
        expect([latin1.statusCode, latin1.json().message], `${method} ${url}`).toEqual([415, t.server.unsupportedCharset('latin1')]);
      }
      const { rows } = await env().db.sql('SELECT count(*)::int AS posts FROM video_posts', []);
      expect(rows[0].posts).toBe(0);
    });

    it('refuses dates more than a year ahead in publishes, moves and spreads', async () => {
      const owner = await createUser(env(), 'owner');
      const profile = await createAccount(env(), owner, {
        isActiveYouTube: true,
        YouTubeAuthClientId: 'client',
        YouTubeAuthClientSecret: 'secret',
      });
      const request = await renderedRequest(env(), owner.id, 2, 1000);
      const publishUrl = `/api/upload-video/${request.idUpload}`;
      const far = kyivDay(370, '10:00').wall;
      const refusal = async (method: string, url: string, payload: object) => {
        const response = await send38('dates over a year ahead', env().app, { method, url, headers: owner.headers, payload });
        return [response.statusCode, response.json().message];
      };
      const spread = (from: string, to: string) => ({
        from,
        to,
        accounts: [{ id: profile.id }],
        inYouTube: true,
        inTikTok: false,
        inInstagram: false,
        video: request.videos.map((video) => ({ id: video.id })),
      });
      expect(await refusal('POST', `${publishUrl}/spread`, spread('9999-12-01', '9999-12-31'))).toEqual([400, [t.spread.tooFarAhead]]);
      expect(await refusal('POST', `${publishUrl}/spread`, spread(far.slice(0, 10), far.slice(0, 10)))).toEqual([
        400,
        [t.spread.tooFarAhead],
      ]);
      expect(await refusal('POST', publishUrl, publishPayload(request, [profile.id], { date: '9999-12-31T10:00' }))).toEqual([
        400,
        [t.publish.tooFarAhead],
      ]);
      const farVideo = publishPayload(request, [profile.id]);
      farVideo.video[1]!.date = far;
      expect(await refusal('POST', publishUrl, farVideo)).toEqual([400, t.publish.tooFarAhead]);
      farVideo.video[1]!.date = '9999-12-31T21:59:00Z';
      expect(await refusal('POST', publishUrl, farVideo)).toEqual([400, t.publish.tooFarAhead]);

      const taken = await send38('dates over a year ahead', env().app, {
        method: 'POST',
        url: publishUrl,
        headers: owner.headers,
        payload: publishPayload(request, [profile.id], { date: kyivDay(30, '12:00').wall }),
      });
      expect(taken.statusCode, taken.body).toBe(200);
      const moveUrl = `${publishUrl}/video/${request.videos[0]!.id}`;
      expect(await refusal('PATCH', moveUrl, { date: '9999-12-31T10:00' })).toEqual([400, t.publish.tooFarAhead]);
      expect(await refusal('PATCH', moveUrl, { date: far })).toEqual([400, t.publish.tooFarAhead]);
      expect(
        (
          await send38('dates over a year ahead', env().app, {
            method: 'PATCH',
            url: moveUrl,
            headers: owner.headers,
            payload: { date: kyivDay(60, '12:00').wall },
          })
        ).statusCode,
      ).toBe(200);
    });
  },
  { queue: 'send' },
);

// ─── Issue 38.3 and 38.4: the sandbox's controls and the consent callbacks' browser binding ───

describeEachDatabase(
  "hostile input at the sandbox's controls and the consent callbacks (issue 38)",
  (env) => {
    /** What each class of request was answered, by status, for this block's closing note. */
    const answered = new Map<string, Map<number, number>>();
    afterAll(() => {
      const sum = (statuses: Map<number, number>) => [...statuses.values()].reduce((total, times) => total + times, 0);
      const lines = [...answered].map(([name, statuses]) => {
        const byStatus = [...statuses].sort(([a], [b]) => a - b).map(([status, times]) => `${status}×${times}`);
        return `  ${name}: ${sum(statuses)} → ${byStatus.join(', ')}`;
      });
      const total = [...answered.values()].reduce((requests, statuses) => requests + sum(statuses), 0);
      console.log(
        `hostile input at the sandbox's controls and the consent callbacks [${env().kind}]: ${total} requests\n${lines.join('\n')}`,
      );
    });

    /** One request of a class, counted for the note; a 5xx fails the test whatever the class expects. */
    const send = async (name: string, request: InjectOptions) => {
      const response = await env().app.inject(request);
      const statuses = answered.get(name) ?? new Map<number, number>();
      answered.set(name, statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1));
      expect(response.statusCode, `${name}: ${request.method ?? 'GET'} ${request.url} → ${response.body.slice(0, 300)}`).toBeLessThan(500);
      return response;
    };

    it('answers every control route 401 or 403 to whoever is not an admin however the request is dressed, and an admin never 5xx', async () => {
      const controls = env()
        .app.routeTable.filter((route) => isSandboxControl(route.url))
        .flatMap((route) =>
          [route.method]
            .flat()
            .filter((method) => method !== 'HEAD')
            .map((method) => ({ method, url: route.url })),
        );
      expect(controls.length).toBeGreaterThanOrEqual(13);
      const operator = await createUser(env(), 'olena');
      const admin = await createUser(env(), 'chief', { role: 'admin' });
      const strangers: [string, Record<string, string>, number][] = [
        ['nobody', {}, 401],
        ['a made-up bearer', { authorization: 'Bearer x.y.z' }, 401],
        ['another scheme', { authorization: 'Basic YWRtaW46YWRtaW4=' }, 401],
        ['an operator', operator.headers, 403],
        ["an operator's publish token", (await createApiToken(env(), operator, 'publish')).headers, 403],
        ["an admin's read token", (await createApiToken(env(), admin, 'read')).headers, 403],
      ];
      const bodies = ['{"platform":"youtube","step":"init","kind":"quota"}', '{"text":"\\u0000","chatId":1e20}', '[', 'a'.repeat(20_000)];
      for (const { method, url } of controls) {
        // The router takes `_` spelled %5F too: the route matched decides, not the URL as sent.
        for (const spelled of [url, url.replace('/_', '/%5F'), url.replace('/_', '/%5f')]) {
          for (const [who, headers, status] of strangers) {
            const response = await send(`control routes, ${who}`, {
              method: method as 'POST',
              url: spelled,
              headers: { ...headers, 'content-type': 'application/json' },
              ...(method === 'POST' ? { payload: bodies[spelled.length % bodies.length] } : {}),
            });
            expect(response.statusCode, `${method} ${spelled} as ${who}`).toBe(status);
          }
        }
        for (const payload of method === 'POST' ? bodies : [undefined]) {
          await send('control routes, the admin with hostile bodies', {
            method: method as 'POST',
            url,
            headers: { ...admin.headers, 'content-type': 'application/json' },
            ...(payload === undefined ? {} : { payload }),
          });
        }
      }
      // A spelling the router does not take is not found, for anyone.
      for (const url of ['/sandbox/_telegram/', '/sandbox//_telegram', '/sandbox/_TELEGRAM', '/sandbox/_telegram%2Fsend']) {
        expect((await send('control routes, other spellings', { url })).statusCode, url).toBe(404);
      }
      await send('control routes, the admin with hostile bodies', { method: 'DELETE', url: '/sandbox/_faults', headers: admin.headers });
    });

    it("refuses a callback without its flow's cookie, whatever the cookie or the state holds, and spends the state", async () => {
      const user = await createUser(env(), 'owner');
      const account = await createAccount(env(), user, {
        isActiveYouTube: true,
        YouTubeAuthClientId: 'hostile.apps.googleusercontent.com',
        YouTubeAuthClientSecret: 'hostile-secret',
      });
      /** A flow as the browser that started it holds it: its state, and its cookie's `name=value`. */
      const started = async (platform: 'youtube' | 'tiktok' | 'instagram') => {
        const link = await send('consent links', {
          method: 'POST',
          url: `/api/accounts/connect-${platform}/${account.id}`,
          headers: user.headers,
        });
        const url = new URL(link.json<{ url: string }>().url);
        if (platform !== 'youtube')
          return { state: url.searchParams.get('state')!, cookie: String(link.headers['set-cookie']).split(';')[0]! };
        const opened = await send('consent links', { url: `${url.pathname}${url.search}` });
        return { state: url.searchParams.get('state')!, cookie: String(opened.headers['set-cookie']).split(';')[0]! };
      };
      const callback = (platform: string, state: string, cookie: string | undefined) =>
        send(`callbacks, ${platform}`, {
          url: `/api/oauth/${platform}/callback?${new URLSearchParams({ code: 'stolen-code', state })}`,
          headers: cookie === undefined ? {} : { cookie },
        });
      const landing = (response: { headers: Record<string, unknown> }) => new URL(String(response.headers.location), 'http://x');

      for (const platform of ['youtube', 'tiktok', 'instagram'] as const) {
        const other = await started(platform);
        const otherPlatform = await started(platform === 'tiktok' ? 'instagram' : 'tiktok');
        /** Cookies a browser that did not start the flow may hold, or an attacker may write. */
        const strangers = (own: { cookie: string }) => {
          const name = own.cookie.split('=')[0]!;
          return [
            undefined,
            '',
            `${name}=`,
            `${name}=x`,
            `${name}=${'A'.repeat(43)}`,
            `${name}=${'*'.repeat(43)}`,
            `${name}=${'A'.repeat(8000)}`,
            `${name}=%00`,
            `${name}=${other.cookie.split('=')[1]}`,
            other.cookie,
            otherPlatform.cookie,
            `${other.cookie}; ${otherPlatform.cookie}; a=b; ${name}`,
            'consent_=x; =; ;;; device=a.b.c',
          ];
        };
        for (let variant = 0; variant < strangers(other).length; variant++) {
          const flow = await started(platform);
          const cookie = strangers(flow)[variant];
          const refused = await callback(platform, flow.state, cookie);
          expect([refused.statusCode, refused.headers.location], `${platform}, cookie ${String(cookie).slice(0, 80)}`).toEqual([
            302,
            '/api/oauth/another-browser',
          ]);
          // Spent: the code that came with it is no use with that state, even in its own browser.
          const after = await callback(platform, flow.state, flow.cookie);
          expect(landing(after).searchParams.get(`${platform}Error`)).toBe(t.youtubeOauth.linkExpired);
        }
        // A state that names nothing, or another platform's flow, is an expired link whatever the cookie.
        for (const state of ['', 'a'.repeat(2048), otherPlatform.state]) {
          expect(landing(await callback(platform, state, `${other.cookie}; ${otherPlatform.cookie}`)).pathname).toBe('/accounts/list');
        }
        // One the schema refuses is a plain 400, as any request with a control character or past the length.
        for (const state of ['\u0000', 'a'.repeat(2049)]) expect((await callback(platform, state, other.cookie)).statusCode).toBe(400);
      }

      // YouTube's link binds a browser only with its own signature, and otherwise answers 400 and no cookie.
      const { state } = await started('youtube');
      const forged: [string, string][] = [
        [state, ''],
        [state, 'A'.repeat(43)],
        [state, '%00'],
        [state, 'a'.repeat(2048)],
        ['', 'x'],
        ['\u0000', 'x'],
        ['a'.repeat(2049), 'x'],
      ];
      for (const [linkState, sig] of forged) {
        const response = await send('YouTube links, forged', {
          url: `/api/oauth/youtube/start?${new URLSearchParams({ state: linkState, sig })}`,
        });
        expect([response.statusCode, response.headers['set-cookie']]).toEqual([400, undefined]);
      }
      const page = await send('the refusal page', { url: '/api/oauth/another-browser?code=x&state=y' });
      expect(page.statusCode).toBe(403);
      expect(page.body).toContain(t.consentPage.anotherBrowser);
    });
  },
  { queue: 'send' },
);
