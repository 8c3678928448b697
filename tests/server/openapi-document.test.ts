import { createConfig, lintFromString } from '@redocly/openapi-core';
import { expect, it } from 'vitest';
import { operationNotes } from '../../server/openapi/operations';
import { createUser, describeEachDatabase, type TestEnv } from './helpers';

type Operation = {
  operationId: string;
  summary?: string;
  tags?: string[];
  security?: unknown[];
  parameters?: { in: string; name: string }[];
  requestBody?: { content: Record<string, { schema: { required?: string[]; properties?: Record<string, unknown> } }> };
  responses: Record<string, { content?: Record<string, unknown> }>;
};
type Document = { paths: Record<string, Record<string, Operation>>; servers: { url: string }[]; tags: { name: string }[] };

const operationsOf = (document: Document) =>
  Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ path, method, operation })),
  );

async function documentAt(env: TestEnv, url: string): Promise<Document> {
  const user = await createUser(env, 'reader');
  const response = await env.app.inject({ url, headers: user.headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** Redocly's `recommended` ruleset (https://redocly.com/docs/cli/rules/recommended), as `redocly lint` runs it. */
async function lint(document: Document) {
  const config = await createConfig({ extends: ['recommended'] });
  const problems = await lintFromString({ source: JSON.stringify(document), absoluteRef: 'openapi.json', config });
  const count = (severity: string) =>
    problems
      .filter((problem) => problem.severity === severity)
      .reduce<Record<string, number>>((counts, problem) => ({ ...counts, [problem.ruleId]: (counts[problem.ruleId] ?? 0) + 1 }), {});
  return {
    errors: problems.filter((problem) => problem.severity === 'error').map((problem) => `${problem.ruleId}: ${problem.message}`),
    warnings: count('warn'),
  };
}

describeEachDatabase('the OpenAPI documents', (env) => {
  it("passes redocly's recommended rules without an error", async () => {
    const { errors, warnings } = await lint(await documentAt(env(), '/api/docs'));
    expect(errors).toEqual([]);
    // What stays a warning, and why: SPEC's paths (/api/accounts/update-channel/{id} beside
    // /api/accounts/{id}/slots), the OAuth routes that answer only redirects or pages, /healthz
    // that refuses nothing, no licence for an internal product, a test server at localhost.
    expect(Object.keys(warnings).sort()).toEqual(
      ['info-license', 'no-ambiguous-paths', 'no-server-example.com', 'operation-2xx-response', 'operation-4xx-response'].sort(),
    );
  });

  it('names every operation once, from its route, with a tag and a Ukrainian summary from server/openapi/operations.ts', async () => {
    const document = await documentAt(env(), '/api/docs');
    const operations = operationsOf(document);
    expect(operations.length).toBeGreaterThan(90);
    const ids = operations.map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { path, method, operation } of operations) {
      expect(operation.operationId, `${method} ${path}`).toMatch(/^(get|post|put|patch|delete)[A-Z][A-Za-z0-9]*$/);
      expect(operationNotes[operation.operationId]?.summary, `${operation.operationId}: no summary in server/openapi/operations.ts`).toBe(
        operation.summary,
      );
      expect(operation.summary, operation.operationId).toMatch(/[а-яіїєґ]/i);
      expect(operation.tags, operation.operationId).toHaveLength(1);
    }
    // A summary whose route is gone would mislead the next reader.
    expect(Object.keys(operationNotes).filter((id) => !ids.includes(id))).toEqual([]);
    expect(document.paths['/api/accounts/{id}']!.get!.operationId).toBe('getAccountsById');
    expect(document.paths['/api/upload-video/{idUpload}']!.post!.operationId).toBe('postUploadVideoByIdUpload');
    expect(document.tags.map((tag) => tag.name)).toContain('accounts');
  });

  it('spells each path as SPEC does, once, and both spellings still answer', async () => {
    const document = await documentAt(env(), '/api/docs');
    const paths = Object.keys(document.paths);
    expect(paths.filter((path) => path.endsWith('/'))).toEqual([]);
    expect(paths).toEqual(expect.arrayContaining(['/api/accounts', '/api/tokens', '/api/upload-video', '/api/media/{path}']));
    expect(paths.filter((path) => path.includes('{*}') || path.startsWith('/sandbox') || path.startsWith('/mcp'))).toEqual([]);
    expect(document.paths['/api/media/{path}']!.get!.parameters).toContainEqual(expect.objectContaining({ in: 'path', name: 'path' }));
    const user = await createUser(env(), 'operator');
    for (const url of ['/api/accounts?page=1', '/api/accounts/?page=1']) {
      expect((await env().app.inject({ url, headers: user.headers })).statusCode, url).toBe(200);
    }
  });

  it('lets public routes be called without a bearer, and guarded ones refuse without it', async () => {
    const document = await documentAt(env(), '/api/docs');
    const publicOnes = operationsOf(document).filter(({ operation }) => operation.security?.length === 0);
    expect(publicOnes.map(({ operation }) => operation.operationId).sort()).toEqual(
      Object.entries(operationNotes)
        .filter(([, notes]) => notes.access === 'public')
        .map(([id]) => id)
        .sort(),
    );
    expect(publicOnes.map(({ path }) => path)).toEqual(
      expect.arrayContaining([
        '/healthz',
        '/api/auth/login',
        '/api/auth/refresh',
        '/api/oauth/youtube/callback',
        '/api/oauth/tiktok/callback',
      ]),
    );
    for (const { path, method, operation } of operationsOf(document)) {
      const url = path.replace(/\{[^}]+\}/g, '1');
      const response = await env().app.inject({ method: method.toUpperCase() as 'GET', url, payload: method === 'get' ? undefined : {} });
      if (operation.security === undefined) {
        // Guarded: refused for want of a bearer, or for its body or path before a preHandler guard is asked.
        expect([400, 401, 404], `${method} ${path}`).toContain(response.statusCode);
        expect(operation.responses['401'], operation.operationId).toBeDefined();
        expect(operation.responses['403'], operation.operationId).toBeDefined();
        if (method === 'get' && !path.includes('{')) expect(response.statusCode, `${method} ${path}`).toBe(401);
      } else {
        expect(response.statusCode, `${method} ${path}`).not.toBe(401);
      }
    }
  });

  it('describes the multipart uploads part by part, the CSV as text/csv with JSON errors, and the publish body as the server checks it', async () => {
    const document = await documentAt(env(), '/api/docs');
    const parts = (path: string) => document.paths[path]!.post!.requestBody!.content['multipart/form-data']!.schema;
    expect(parts('/api/photo-bg')).toMatchObject({
      required: ['files'],
      properties: { files: { type: 'array', items: { type: 'string', format: 'binary' } } },
    });
    expect(parts('/api/create-video/create')).toMatchObject({
      required: ['file', 'countVideo'],
      properties: { file: { type: 'string', format: 'binary' }, countVideo: { type: 'integer' }, photoIds: { type: 'string' } },
    });
    const exported = document.paths['/api/stats/export.csv']!.get!.responses;
    expect(Object.keys(exported['200']!.content!)).toEqual(['text/csv']);
    for (const status of ['400', '401', '403', '4XX'])
      expect(Object.keys(exported[status]!.content!), status).toEqual(['application/json']);
    const media = document.paths['/api/media/{path}']!.get!.responses;
    expect(Object.keys(media['200']!.content!)).toContain('video/mp4');
    expect(Object.keys(media['404']!.content!)).toEqual(['application/json']);

    const publish = document.paths['/api/upload-video/{idUpload}']!.post!.requestBody!.content['application/json']!.schema;
    expect(publish.required).toEqual(
      expect.arrayContaining(['title', 'tags', 'accounts', 'video', 'inYouTube', 'inTikTok', 'inInstagram']),
    );
    expect(document.paths['/api/accounts-group']!.post!.requestBody!.content['application/json']!.schema.required).toEqual([
      'name',
      'accounts',
    ]);
    for (const { operation } of operationsOf(document)) {
      for (const [status, response] of Object.entries(operation.responses)) {
        if (/^[45]/.test(status) && response.content) {
          expect(Object.keys(response.content), `${operation.operationId} ${status}`).toEqual([
            expect.stringMatching(/^(application\/json|text\/html)$/),
          ]);
        }
      }
    }
  });

  it("serves the sandbox's operations in their own document, to a signed-in user", async () => {
    expect((await env().app.inject({ url: '/sandbox/docs' })).statusCode).toBe(401);
    const document = await documentAt(env(), '/sandbox/docs');
    const paths = Object.keys(document.paths);
    expect(paths.length).toBeGreaterThan(30);
    expect(paths.every((path) => path.startsWith('/sandbox/'))).toBe(true);
    expect(paths).not.toContain('/sandbox/docs');
    const ids = operationsOf(document).map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(document.paths['/sandbox/_faults']!.post!.security).toEqual([{ session: [] }, { apiToken: [] }]);
    expect(document.paths['/sandbox/oauth2.googleapis.com/token']!.post!.security).toEqual([]);
  });
});
