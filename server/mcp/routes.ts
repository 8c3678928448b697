import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { platforms } from '../../src/lib/platforms';
import { t } from '../messages';
import { errorBody, HttpError } from '../http-error';
import { isApiToken } from '../auth/api-tokens';
import { bodyOf, toolOf, toolRoutes, urlOf, type Tool } from './tools';

/** What a client shows the agent once, before it reads the tools. */
const instructions = `Shorts Office publishes short videos to ${platforms.map((platform) => t.platform.names[platform.id]).join(', ')}. A creation request is a video cut into variants; once rendered (status "success") it is published as a set, each video to a profile at a date. Typical flow: list_requests → get_request (video ids, profiles) → propose_spread → publish_set with each video's proposed account and date → get_set to follow its posts; move_post or cancel_post before they start; stats_overview and top_videos for what they gained. The API token decides what is allowed: a read token reads only. Refusals come in Ukrainian, as the API answers them.`;

const refusal = (message: string | string[]): CallToolResult => ({
  isError: true,
  content: [{ type: 'text', text: [message].flat().join('\n') }],
});

/**
 * The MCP server at /mcp (MCP spec 2025-11-25, basic/transports, "Streamable HTTP"): every POST
 * carries JSON-RPC messages and is answered with JSON. Stateless: each request gets its own server
 * and transport (`sessionIdGenerator: undefined`, the SDK's simpleStatelessStreamableHttp example),
 * so no session outlives its request, any instance behind a balancer answers, and a GET, which
 * would open a stream for messages the server starts, is answered 405 as the spec allows.
 *
 * Signed in with a personal API token only, never a session's JWT: an agent's access then has a
 * scope, ends on its own when revoked, and records its last use (server/auth/api-tokens.ts).
 *
 * Each tool is an API route called through `app.inject()` with the caller's Authorization header:
 * the route's schemas, ownership checks and scope guard apply unchanged, so a read token is refused
 * a publish by the very guard the API uses, in its words, and there is no second implementation to
 * drift. The call never leaves this process, and the token goes only to the server it was issued
 * by (the MCP spec's "token passthrough" concern is about forwarding it to another service).
 */
export const mcpRoutes: FastifyPluginAsync = async (app) => {
  const tools = new Map<string, Tool>();
  // Read once every route is registered, so the schemas are the routes' as they stand.
  app.addHook('onReady', async () => {
    for (const route of toolRoutes) tools.set(route.name, toolOf(app, route));
  });

  /**
   * Whether the caller's token opens /mcp, asked of GET /api/auth/me with it, so the API's own
   * guard decides (its guessing limits included: the call is made from the caller's address). A
   * refusal answers 401 with `WWW-Authenticate: Bearer` (RFC 6750 §3; MCP spec 2025-11-25,
   * basic/authorization, "Error Handling").
   */
  async function signIn(request: FastifyRequest, reply: FastifyReply) {
    const authorization = request.headers.authorization ?? '';
    const bearer = authorization.startsWith('Bearer ') ? authorization.slice('Bearer '.length) : '';
    if (!isApiToken(bearer)) {
      reply.header('www-authenticate', bearer ? 'Bearer realm="mcp", error="invalid_token"' : 'Bearer realm="mcp"');
      throw new HttpError(401, bearer ? t.server.mcpNeedsApiToken : t.server.unauthorized);
    }
    const answer = await app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization }, remoteAddress: request.ip });
    if (answer.statusCode === 200) return;
    if (answer.statusCode === 401) reply.header('www-authenticate', 'Bearer realm="mcp", error="invalid_token"');
    const retryAfter = answer.headers['retry-after'];
    if (retryAfter !== undefined) reply.header('retry-after', retryAfter);
    throw new HttpError(answer.statusCode, (answer.json() as { message: string | string[] }).message);
  }

  /** The tool's route called as the caller: the JSON it answers, or its refusal's message. */
  async function call(request: FastifyRequest, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
    const tool = tools.get(name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
    const url = urlOf(tool, args);
    // As the API answers a path that cannot name a row (app.ts, answerError).
    if (url === null) return refusal(t.server.notFound);
    const body = bodyOf(tool, args);
    const answer = await app.inject({
      method: tool.method,
      url,
      headers: { authorization: request.headers.authorization! },
      remoteAddress: request.ip,
      ...(body === undefined ? {} : { payload: body }),
    });
    // The route's JSON as `structuredContent` (MCP spec 2025-11-25, server/tools, "Structured
    // Content", which takes an object only) and as text, for clients that read only text.
    if (answer.statusCode >= 200 && answer.statusCode < 300) {
      const json: unknown = JSON.parse(answer.body);
      const structured = typeof json === 'object' && json !== null && !Array.isArray(json);
      return {
        content: [{ type: 'text', text: answer.body }],
        ...(structured ? { structuredContent: json as Record<string, unknown> } : {}),
      };
    }
    return refusal((answer.json() as { message: string | string[] }).message);
  }

  function mcpServer(request: FastifyRequest): Server {
    const server = new Server(
      { name: 'shorts-office', title: 'Shorts Office', version: '1' },
      { capabilities: { tools: {} }, instructions },
    );
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: [...tools.values()].map((tool) => ({
        name: tool.name,
        title: tool.title,
        description: tool.description,
        inputSchema: tool.inputSchema,
        ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
        annotations: { title: tool.title, ...tool.annotations },
      })),
    }));
    server.setRequestHandler(CallToolRequestSchema, async ({ params }) => call(request, params.name, params.arguments ?? {}));
    return server;
  }

  app.post('/mcp', { schema: { hide: true }, preHandler: signIn }, async (request, reply) => {
    const server = mcpServer(request);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    // The transport writes the answer itself; the security headers are on it already (app.ts's onRequest).
    reply.hijack();
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
    } catch (error) {
      request.log.error({ err: error }, 'MCP request failed');
      if (!reply.raw.headersSent) {
        reply.raw
          .writeHead(500, { 'content-type': 'application/json; charset=utf-8' })
          .end(JSON.stringify(errorBody(500, t.server.internalError)));
      }
    }
  });

  const notAllowed = async (_request: FastifyRequest, reply: FastifyReply) =>
    reply.status(405).header('allow', 'POST').send(errorBody(405, t.server.statusNames[405]!));
  app.get('/mcp', { schema: { hide: true }, preHandler: signIn }, notAllowed);
  app.delete('/mcp', { schema: { hide: true }, preHandler: signIn }, notAllowed);
};
