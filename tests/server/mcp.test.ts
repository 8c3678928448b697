import crypto from 'node:crypto';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { AccountSummary, Paged, PublicationRequestDetail, SpreadProposal, TopVideos, UploadDetail } from '../../src/lib/contract';
import { uploadVideoSchemas } from '../../src/lib/contract/media';
import { kyivWallTime } from '../../src/lib/kyiv-time';
import { t } from '../../server/messages';
import { publishPost } from '../../server/jobs/publish';
import { forgetInstagramLimits } from '../../server/platforms/instagram/caps';
import { SandboxState } from '../../server/sandbox/index';
import { createAccount, type TestUser } from './backoffice-fixtures';
import { createApiToken, createUser, describeEachDatabase, storedPosts, testJobContext, withSandboxServer } from './helpers';
import { ManualClock } from './manual-clock';
import { renderedRequest } from './publishing-fixtures';

/** Issue 42.3: the MCP server at /mcp, driven by the SDK's own client over Streamable HTTP. */

const day = 86_400_000;
// Tuesday 1 December 2026, 10:17 in Kyiv: the spread proposes dates from 10:35 on.
const start = Date.parse('2026-12-01T08:17:00Z');
const clock = new ManualClock(start);
const sandbox = new SandboxState({ now: () => clock.now() });

const toolNames = [
  'cancel_platform_post',
  'cancel_post',
  'get_profile',
  'get_request',
  'get_set',
  'list_profiles',
  'list_requests',
  'list_sets',
  'move_post',
  'profile_stats',
  'propose_spread',
  'publish_set',
  'restore_post',
  'set_stats',
  'stats_overview',
  'top_videos',
];

describeEachDatabase(
  'MCP server',
  (env) => {
    const network = withSandboxServer(env);
    const clients: Client[] = [];
    beforeEach(() => {
      forgetInstagramLimits();
      clock.set(start);
    });
    afterEach(async () => {
      for (const client of clients.splice(0)) await client.close();
    });

    async function connect(headers: Record<string, string>) {
      const client = new Client({ name: 'mcp-test', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', network().baseUrl), { requestInit: { headers } }));
      clients.push(client);
      return client;
    }

    /** A tool's answer: its JSON when it succeeded, else its refusal's text. */
    async function call<T>(client: Client, name: string, args: Record<string, unknown>) {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
      return { isError: result.isError === true, data: result.structuredContent as T, text };
    }

    async function instagramProfile(user: TestUser, name: string) {
      return createAccount(env(), user, {
        proxy: network().proxy.url,
        comments: `${name}-${env().kind}`,
        isActiveInstagram: true,
        InstagramLogin: `${name}-${env().kind}-${crypto.randomUUID().slice(0, 8)}.insta`,
        InstagramPassword: 'instagram-password',
      });
    }

    it('lists its tools with descriptions, the routes’ own schemas and hints', async () => {
      const owner = await createUser(env(), 'owner');
      const client = await connect((await createApiToken(env(), owner, 'read')).headers);
      const { tools } = await client.listTools();

      expect(tools.map((tool) => tool.name).sort()).toEqual(toolNames);
      expect(client.getInstructions()).toContain('propose_spread');
      for (const tool of tools) {
        expect(tool.description!.length, tool.name).toBeGreaterThan(40);
        expect(tool.inputSchema.type, tool.name).toBe('object');
        expect(typeof tool.annotations?.readOnlyHint, tool.name).toBe('boolean');
        expect(typeof tool.annotations?.openWorldHint, tool.name).toBe('boolean');
        if (!tool.annotations!.readOnlyHint) {
          expect(typeof tool.annotations!.destructiveHint, tool.name).toBe('boolean');
          expect(typeof tool.annotations!.idempotentHint, tool.name).toBe('boolean');
        }
      }
      const byName = new Map(tools.map((tool) => [tool.name, tool]));
      // The publish tool's input is the route's path parameter beside its body schema, as the contract has it.
      const publish = byName.get('publish_set')!;
      const { params, body, response } = JSON.parse(JSON.stringify(uploadVideoSchemas.publish));
      expect(publish.inputSchema.properties).toEqual({ ...params.properties, ...body.properties });
      expect(publish.inputSchema.required).toEqual([...params.required, ...body.required]);
      expect(publish.outputSchema).toEqual(response[200]);
      expect(publish.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
      expect(byName.get('cancel_post')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
      expect(byName.get('list_profiles')!.annotations).toMatchObject({ readOnlyHint: true });
      expect(Object.keys(byName.get('list_profiles')!.inputSchema.properties!)).toEqual(expect.arrayContaining(['page', 'q', 'health']));
      expect(byName.get('move_post')!.inputSchema.required).toEqual(['idUpload', 'videoId']);
    });

    it('lets a read token read profiles and their health, and refuses it a spread and a publish in the guard’s words', async () => {
      const owner = await createUser(env(), 'owner');
      const profile = await instagramProfile(owner, 'reader');
      const request = await renderedRequest(env(), owner.id, 1, 1000);
      const client = await connect((await createApiToken(env(), owner, 'read')).headers);

      const profiles = await call<Paged<AccountSummary>>(client, 'list_profiles', {});
      expect(profiles.isError, profiles.text).toBe(false);
      expect(profiles.data.data.map((row) => row.id)).toEqual([profile.id]);
      expect(profiles.data.data[0]!.health).toBeDefined();
      expect(JSON.parse(profiles.text)).toEqual(profiles.data);
      const healthy = await call<Paged<AccountSummary>>(client, 'list_profiles', { health: 'problem' });
      expect(healthy.data.data).toEqual([]);

      const detail = await call<PublicationRequestDetail>(client, 'get_request', { idUpload: request.idUpload });
      expect(detail.data.video.map((video) => video.id)).toEqual(request.videos.map((video) => video.id));

      const spread = await call(client, 'propose_spread', {
        idUpload: request.idUpload,
        from: '2026-12-01',
        to: '2026-12-02',
        accounts: [{ id: profile.id }],
        inYouTube: false,
        inTikTok: false,
        inInstagram: true,
        video: [{ id: request.videos[0]!.id }],
      });
      expect(spread).toMatchObject({ isError: true, text: t.server.apiTokenReadOnly });
      const publish = await call(client, 'publish_set', {
        idUpload: request.idUpload,
        title: 'Не вийде',
        description: '',
        tags: [],
        accounts: [{ id: profile.id }],
        video: [{ id: request.videos[0]!.id }],
        inYouTube: false,
        inTikTok: false,
        inInstagram: true,
      });
      expect(publish).toMatchObject({ isError: true, text: t.server.apiTokenReadOnly });
      expect(await storedPosts(env(), { requestId: request.id }, 'p.id')).toEqual([]);

      // Another operator's request is not found, as the route answers it; so is a path naming nothing.
      const stranger = await connect((await createApiToken(env(), await createUser(env(), 'stranger'), 'read')).headers);
      expect(await call(stranger, 'get_request', { idUpload: request.idUpload })).toMatchObject({ isError: true, text: t.server.notFound });
      expect(await call(client, 'get_set', {})).toMatchObject({ isError: true, text: t.server.notFound });
      // A dot segment names no set: it never reaches another route once the URL is resolved.
      expect(await call(client, 'get_set', { idUpload: '..' })).toMatchObject({ isError: true, text: t.server.notFound });
      await expect(client.callTool({ name: 'drop_everything', arguments: {} })).rejects.toThrow(/Unknown tool: drop_everything/);
    });

    it('lets a publish token spread a set, publish it with the dates, move and cancel a post; the rest goes out in the sandbox', async () => {
      const owner = await createUser(env(), 'owner');
      const profile = await instagramProfile(owner, 'publisher');
      const request = await renderedRequest(env(), owner.id, 2, 1000);
      const client = await connect((await createApiToken(env(), owner, 'publish')).headers);
      // Made before the clock moves past the owner's session.
      const reader = await connect((await createApiToken(env(), owner, 'read')).headers);
      const [first, second] = request.videos.map((video) => video.id) as [number, number];
      const rendered = await call<PublicationRequestDetail>(client, 'get_request', { idUpload: request.idUpload });
      // Each video goes back as the request's detail gave it, with the profile as its option came.
      const asRendered = (videoId: number) => {
        const { id, url, idUpload, createdAt } = rendered.data.video.find((video) => video.id === videoId)!;
        return { id, url, idUpload, createdAt };
      };
      const option = rendered.data.accounts.find((account) => account.id === profile.id)!;

      // What the route's body does not declare, the route refuses by name.
      const stray = await call(client, 'publish_set', {
        idUpload: request.idUpload,
        inYouTube: false,
        inTikTok: false,
        inInstagram: true,
        bogus: 1,
      });
      expect(stray.isError).toBe(true);
      expect(stray.text).toContain('bogus');

      const proposal = await call<SpreadProposal>(client, 'propose_spread', {
        idUpload: request.idUpload,
        from: '2026-12-01',
        to: '2026-12-03',
        accounts: [{ id: profile.id }],
        inYouTube: false,
        inTikTok: false,
        inInstagram: true,
        video: [{ id: first }, { id: second }],
      });
      expect(proposal.isError, proposal.text).toBe(false);
      expect(proposal.data.unplaced).toEqual([]);
      expect(proposal.data.data.map((item) => [item.videoId, item.accountId])).toEqual([
        [first, profile.id],
        [second, profile.id],
      ]);

      const published = await call<UploadDetail>(client, 'publish_set', {
        idUpload: request.idUpload,
        title: 'Ранкова пробіжка',
        description: 'Опис для платформ',
        tags: ['біг'],
        accounts: [{ id: profile.id }],
        video: proposal.data.data.map((item) => ({ ...asRendered(item.videoId), account: option, date: item.date })),
        inYouTube: false,
        inTikTok: false,
        inInstagram: true,
      });
      expect(published.isError, published.text).toBe(false);
      const plannedAt = (detail: UploadDetail, videoId: number) =>
        Date.parse(detail.video.find((video) => video.id === videoId)!.plannedAt!);
      for (const item of proposal.data.data) expect(plannedAt(published.data, item.videoId)).toBe(Date.parse(item.date));

      // The second video moves a day later, then is cancelled; the first keeps its date.
      const later = Date.parse(proposal.data.data[1]!.date) + day;
      const moved = await call<UploadDetail>(client, 'move_post', {
        idUpload: request.idUpload,
        videoId: second,
        date: kyivWallTime(later),
      });
      expect(moved.isError, moved.text).toBe(false);
      expect(plannedAt(moved.data, second)).toBe(later);
      const cancelled = await call<UploadDetail>(client, 'cancel_post', { idUpload: request.idUpload, videoId: second });
      expect(cancelled.isError, cancelled.text).toBe(false);
      expect(cancelled.data.video.find((video) => video.id === second)).toMatchObject({ status: 'cancelled', changeable: false });

      // The publishing jobs run when the clock reaches the posts' dates.
      const uploadsBefore = sandbox.videos.length;
      const posts = await storedPosts(env(), { requestId: request.id }, 'p.id, p.video_id, p.job_token, p.scheduled_at');
      expect(posts.map((post) => post.video_id)).toEqual([first]);
      for (const post of posts) {
        clock.set(new Date(post.scheduled_at as string).getTime());
        await clock.flowing(() => publishPost({ postId: post.id as number, token: post.job_token as string }, testJobContext(env())));
      }

      const set = await call<UploadDetail>(reader, 'get_set', { idUpload: request.idUpload });
      const out = set.data.video.find((video) => video.id === first)!;
      expect(out).toMatchObject({ status: 'success', account: { id: profile.id } });
      expect(sandbox.videos.slice(uploadsBefore).map((video) => [video.platform, video.url])).toEqual([['instagram', out.urlInstagram]]);
      expect(set.data.video.find((video) => video.id === second)!.status).toBe('cancelled');

      const sets = await call<Paged<{ idUpload: string }>>(reader, 'list_sets', {});
      expect(sets.data.data.map((row) => row.idUpload)).toEqual([request.idUpload]);
      const top = await call<TopVideos>(reader, 'top_videos', { from: '2026-12-01', to: '2026-12-03' });
      expect(top.isError, top.text).toBe(false);
      expect(Array.isArray(top.data.videos)).toBe(true);
      for (const [name, args] of [
        ['stats_overview', { from: '2026-12-01', to: '2026-12-03', accountId: profile.id }],
        ['set_stats', { idUpload: request.idUpload, days: 7 }],
        ['profile_stats', { id: profile.id }],
        ['get_profile', { id: profile.id }],
        ['list_requests', { status: 'published' }],
      ] as const) {
        const answer = await call(reader, name, args);
        expect(answer.isError, `${name}: ${answer.text}`).toBe(false);
      }
    });

    it('answers 401 with WWW-Authenticate: Bearer without an API token, keeps the security headers, and stays out of the API docs', async () => {
      const owner = await createUser(env(), 'owner');
      const token = await createApiToken(env(), owner, 'read');
      const url = `${network().baseUrl}/mcp`;
      const initialize = JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      });
      const post = (headers: Record<string, string>) =>
        fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
          body: initialize,
        });

      const anonymous = await post({});
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer\b/);
      expect((await anonymous.json()).message).toBe(t.server.unauthorized);
      // A session's token is a person's, with no scope: the MCP server takes API tokens only.
      const session = await post(owner.headers);
      expect([session.status, (await session.json()).message]).toEqual([401, t.server.mcpNeedsApiToken]);
      expect(session.headers.get('www-authenticate')).toContain('error="invalid_token"');
      const guessed = await post({ authorization: `Bearer sho_${'x'.repeat(43)}` });
      expect([guessed.status, guessed.headers.get('www-authenticate')]).toEqual([401, 'Bearer realm="mcp", error="invalid_token"']);
      await expect(connect({})).rejects.toThrow();

      const signedIn = await post(token.headers);
      expect(signedIn.status).toBe(200);
      expect((await signedIn.json()).result.serverInfo).toMatchObject({ name: 'shorts-office' });
      expect(signedIn.headers.get('x-content-type-options')).toBe('nosniff');
      expect(signedIn.headers.get('content-security-policy')).toContain("default-src 'self'");
      const stream = await fetch(url, { headers: { ...token.headers, accept: 'text/event-stream' } });
      expect([stream.status, stream.headers.get('allow')]).toEqual([405, 'POST']);

      const docs = await env().app.inject({ url: '/api/docs', headers: token.headers });
      expect(Object.keys(docs.json().paths).filter((path) => path.startsWith('/mcp'))).toEqual([]);
    });
  },
  { clock, sandbox, queue: 'send' },
);
