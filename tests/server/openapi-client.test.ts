import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { expect, it } from 'vitest';
import { createAccount } from './backoffice-fixtures';
import { buildAppOn, createApiToken, createUser, describeEachDatabase, storedPosts } from './helpers';
import { renderedRequest } from './publishing-fixtures';

/**
 * What a script writer does with /api/docs and tools nobody here wrote: types from
 * openapi-typescript (its Node API, https://openapi-ts.dev/node), calls through openapi-fetch
 * (https://openapi-ts.dev/openapi-fetch/). The script is type-checked as a strict project would,
 * then run against a listening server: a typed client that does not compile, or that the server
 * refuses, fails here.
 */
const flowScript = `import createClient from 'openapi-fetch';
import type { paths } from './schema';

/** Signs in with an API token, reads the profiles, reads a request, publishes it as it came, reads its statistics. */
export async function flow(baseUrl: string, token: string, idUpload: string) {
  const client = createClient<paths>({ baseUrl, headers: { authorization: \`Bearer \${token}\` } });
  const me = await client.GET('/api/auth/me');
  if (!me.data) throw new Error(\`me: \${JSON.stringify(me.error)}\`);
  const profiles = await client.GET('/api/accounts', { params: { query: { page: 1 } } });
  if (!profiles.data) throw new Error(\`profiles: \${JSON.stringify(profiles.error)}\`);
  const listed = new Set(profiles.data.data.map((profile) => profile.id));
  const request = await client.GET('/api/create-video/request/{idUpload}', { params: { path: { idUpload } } });
  if (!request.data) throw new Error(\`request: \${JSON.stringify(request.error)}\`);
  const published = await client.POST('/api/upload-video/{idUpload}', {
    params: { path: { idUpload } },
    body: {
      title: 'Ранковий ролик',
      description: 'з API',
      tags: ['ранок'],
      accounts: request.data.accounts.filter((account) => listed.has(account.id)),
      video: request.data.video,
      inYouTube: true,
      inTikTok: false,
      inInstagram: false,
    },
  });
  if (!published.data) throw new Error(\`publish: \${JSON.stringify(published.error)}\`);
  const statistics = await client.GET('/api/stats/video/{idUpload}', { params: { path: { idUpload } } });
  if (!statistics.data) throw new Error(\`statistics: \${JSON.stringify(statistics.error)}\`);
  const refused = await client.GET('/api/upload-video/{idUpload}', { params: { path: { idUpload: crypto.randomUUID() } } });
  return {
    login: me.data.user.login,
    profiles: profiles.data.data.length,
    videos: request.data.video.length,
    published: { status: published.data.status, videos: published.data.video.length, title: published.data.title },
    statistics: Object.keys(statistics.data),
    refused: refused.error?.statusCode,
  };
}
`;

/** Strict, as a script writer's own tsconfig would be; the DOM library for fetch's types. */
const compilerOptions: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: false,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
  types: [],
  skipLibCheck: true,
};

function typeErrors(file: string): string[] {
  const program = ts.createProgram([file], compilerOptions);
  return ts
    .getPreEmitDiagnostics(program)
    .map((diagnostic) => `${diagnostic.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`);
}

describeEachDatabase(
  'a client generated from the OpenAPI document',
  (env) => {
    it('type-checks a strict openapi-fetch script and runs it: token, profiles, request, publish, statistics', async () => {
      const owner = await createUser(env(), 'owner');
      const profile = await createAccount(env(), owner, {
        comments: 'ранок',
        isActiveYouTube: true,
        YouTubeAuthClientId: 'client.apps.googleusercontent.com',
        YouTubeAuthClientSecret: 'secret',
      });
      const request = await renderedRequest(env(), owner.id, 2);
      const token = await createApiToken(env(), owner, 'publish');

      // Inside the checkout (.tmp/ is ignored), so the script finds openapi-fetch as a project would.
      const folder = path.join(process.cwd(), '.tmp', `openapi-client-${crypto.randomBytes(4).toString('hex')}`);
      await fs.mkdir(folder, { recursive: true });
      const app = await buildAppOn(env(), { queue: env().queue });
      try {
        const baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
        const document = await fetch(`${baseUrl}/api/docs`, { headers: token.headers });
        expect(document.status).toBe(200);
        const schema = await document.json();
        expect(schema.servers).toEqual([{ url: baseUrl }]);
        await fs.writeFile(path.join(folder, 'schema.d.ts'), astToString(await openapiTS(schema)));
        const script = path.join(folder, 'flow.ts');
        await fs.writeFile(script, flowScript);
        expect(typeErrors(script)).toEqual([]);

        // The same type-check must fail where a client is wrong: a path SPEC does not spell, a missing field.
        const wrong = path.join(folder, 'wrong.ts');
        await fs.writeFile(
          wrong,
          flowScript
            .replace("'/api/accounts'", "'/api/accounts/'")
            .replace("title: 'Ранковий ролик',", '')
            .replace('export async', 'async'),
        );
        expect(typeErrors(wrong).length).toBeGreaterThanOrEqual(2);

        const { flow } = (await import(/* @vite-ignore */ script)) as {
          flow: (baseUrl: string, token: string, idUpload: string) => Promise<Record<string, unknown>>;
        };
        const result = await flow(schema.servers[0].url, token.token, request.idUpload);
        expect(result).toEqual({
          login: 'owner',
          profiles: 1,
          videos: 2,
          published: { status: expect.any(String), videos: 2, title: 'Ранковий ролик' },
          statistics: expect.arrayContaining(['views', 'byPlatform', 'byProfile']),
          refused: 404,
        });
        expect(await storedPosts(env(), { requestId: request.id }, 'p.account_id, p.platform')).toEqual([
          { account_id: profile.id, platform: 'youtube' },
          { account_id: profile.id, platform: 'youtube' },
        ]);
      } finally {
        await app.close();
        await fs.rm(folder, { recursive: true, force: true });
      }
    });
  },
  { queue: 'send' },
);
