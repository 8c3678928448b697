import type { FastifyInstance, RouteOptions } from 'fastify';
import { platforms } from '../../src/lib/platforms';
import type { ApiTokenScope } from '../../src/lib/contract';

/** A request's switch per platform, as the publish and spread bodies name them. */
const tickFields = platforms.map((platform) => platform.fields.ticked).join(', ');

/**
 * What a tool promises about its effects (MCP spec 2025-11-25, server/tools, "Tool annotations";
 * schema.ts `ToolAnnotations`): hints a client may use to ask a person before a call, never a
 * permission. What a call may do is the token's scope, checked by the route the tool calls.
 */
interface Effects {
  readOnlyHint: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint: boolean;
}

/** One tool: an API route, with the words an agent reads to choose it. */
export interface ToolRoute {
  name: string;
  title: string;
  description: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** The route's path as registered, with `:name` parameters. */
  path: string;
  /** The least scope of an API token the route takes: a read token only reads (server/auth/guards.ts). */
  scope: ApiTokenScope;
  annotations: Effects;
}

const reads: Effects = { readOnlyHint: true, openWorldHint: false };

/** A call that needs a publish token (it is not a GET) though it saves nothing, as a spread. */
const proposes: Effects = { readOnlyHint: true, openWorldHint: false };

const datesNote = 'Dates are Kyiv wall time "YYYY-MM-DDTHH:mm" (or ISO with an offset), from now to a year ahead.';

/**
 * The tools, in the order an agent meets them: find a rendered request, propose its spread, publish
 * it with the proposed dates, follow and change its posts, read what they gained. Each is one API
 * route; its input and output schemas are that route's own (see toolSchemas).
 */
export const toolRoutes: ToolRoute[] = [
  {
    name: 'list_profiles',
    title: 'List profiles',
    description:
      "The caller's profiles (an admin token: everyone's), 10 a page, each with its platforms and their connection health (`health`: ok, or why a platform is down or failing). `health: \"problem\"` keeps the profiles with a platform not ok; `q` searches names, comments and proxies; `platform` keeps one platform's.",
    method: 'GET',
    path: '/api/accounts',
    scope: 'read',
    annotations: reads,
  },
  {
    name: 'get_profile',
    title: 'Read a profile',
    description:
      "One profile by its id: its platforms, the names they gave, each connection's health and last checks, its posting slots and latest videos.",
    method: 'GET',
    path: '/api/accounts/:id',
    scope: 'read',
    annotations: reads,
  },
  {
    name: 'list_requests',
    title: 'List creation requests',
    description:
      'Creation requests, newest first, 10 a page: an uploaded video cut into `countVideo` variants. `status: "success"` keeps those rendered and ready to publish; "published" those already published (their set is read with get_set). Each names its `idUpload`, which the other tools take.',
    method: 'GET',
    path: '/api/create-video',
    scope: 'read',
    annotations: reads,
  },
  {
    name: 'get_request',
    title: 'Read a creation request',
    description:
      "A creation request by its idUpload: its rendered videos (their ids are what propose_spread and publish_set take), and what publishing offers: the owner's profiles with their platforms, tag sets and profile groups.",
    method: 'GET',
    path: '/api/create-video/request/:idUpload',
    scope: 'read',
    annotations: reads,
  },
  {
    name: 'list_sets',
    title: 'List published sets',
    description:
      'Published sets, newest first, 10 a page: a request once published, with its posts counted by state and the span of their dates. `status` keeps sets in one state (publication, success, error, cancelled).',
    method: 'GET',
    path: '/api/upload-video',
    scope: 'read',
    annotations: reads,
  },
  {
    name: 'get_set',
    title: 'Read a published set',
    description:
      'A published set by its idUpload: each video with its profile, its posts per platform and their state, links once published, why a post waits or failed, when it is planned (`plannedAt`), and whether it can still be moved or cancelled (`changeable`).',
    method: 'GET',
    path: '/api/upload-video/:idUpload',
    scope: 'read',
    annotations: reads,
  },
  {
    name: 'propose_spread',
    title: 'Propose a spread (Розподілити)',
    description: `Proposes a profile and a date for each video of a rendered request between the Kyiv days \`from\` and \`to\` (YYYY-MM-DD, at most 31 days), within each profile's posting hours, gaps and the platforms' daily caps, with the reason for each; videos no slot takes are listed in \`unplaced\`, and \`days\` says how many posts each profile gets per day. \`mode\`: "even" (default) spreads each profile's videos evenly over the days, at its best hours; "soonest" takes the earliest free slots. Saves nothing: publish the proposal with publish_set, each video with its \`account\` and \`date\`. Tick the platforms (${tickFields}) and name the profiles in \`accounts\` as {id}. Needs a publish token.`,
    method: 'POST',
    path: '/api/upload-video/:idUpload/spread',
    scope: 'publish',
    annotations: proposes,
  },
  {
    name: 'publish_set',
    title: 'Publish a set',
    description: `Publishes a rendered request: title, description, tags, the ticked platforms, the profiles (\`accounts\`, each {id}) and the videos (\`video\`): each as get_request answers it (id, url, idUpload, createdAt) with its own \`account\` (one of get_request's \`accounts\`, as it came) and \`date\`, or with none to go to the profiles in turn at the set's \`date\`, or at once. ${datesNote} Each video's posts then go out at their dates. With \`checkDuplicates: true\` it is refused (409, saving nothing) with the possible duplicates named when two dated videos of a profile fall within its gap or a video already has a post on a platform; send it again without the flag to publish them all the same. Answers the published set, as get_set. Needs a publish token.`,
    method: 'POST',
    path: '/api/upload-video/:idUpload',
    scope: 'publish',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  },
  {
    name: 'move_post',
    title: 'Move a scheduled video',
    description: `Moves a video whose posts have not started (\`changeable\` in get_set) to another \`date\` and/or profile (\`accountId\`); with \`platform\`, only its post there moves, to \`date\`. ${datesNote} Refused with the reason when the profile's hours, days or a daily cap forbid the new place; within the profile's gap of another post it is refused as a possible duplicate unless \`allowDuplicates: true\` is sent. Needs a publish token.`,
    method: 'PATCH',
    path: '/api/upload-video/:idUpload/video/:videoId',
    scope: 'publish',
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  },
  {
    name: 'cancel_post',
    title: 'Cancel a scheduled video',
    description:
      "Cancels a video's posts that have not started yet, on every platform; restore_post puts them back as they were. Needs a publish token.",
    method: 'DELETE',
    path: '/api/upload-video/:idUpload/video/:videoId/schedule',
    scope: 'publish',
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  },
  {
    name: 'cancel_platform_post',
    title: "Cancel a video's post on one platform",
    description:
      "Cancels a video's post on one `platform` before it starts; its posts on the other platforms go out as planned. Needs a publish token.",
    method: 'DELETE',
    path: '/api/upload-video/:idUpload/video/:videoId/schedule/:platform',
    scope: 'publish',
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  },
  {
    name: 'restore_post',
    title: 'Restore a cancelled video',
    description:
      "Undoes the video's latest cancel: its posts are scheduled again with the same profile, dates and choices (at once when a date passed meanwhile). Needs a publish token.",
    method: 'POST',
    path: '/api/upload-video/:idUpload/video/:videoId/schedule',
    scope: 'publish',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  },
  {
    name: 'stats_overview',
    title: 'Statistics over a period',
    description:
      'Views, likes and comments gained between the Kyiv days `from` and `to` (YYYY-MM-DD), per platform and per day, with the profiles ranked; for every profile the caller sees, or one profile (`accountId`) or group (`groupId`), on every platform or one (`platform`).',
    method: 'GET',
    path: '/api/stats/overview',
    scope: 'read',
    annotations: reads,
  },
  {
    name: 'top_videos',
    title: 'Top videos',
    description:
      'The videos that gained the most views between the Kyiv days `from` and `to` (YYYY-MM-DD), best first, with their set, profile and platforms; narrowed as stats_overview is.',
    method: 'GET',
    path: '/api/stats/top',
    scope: 'read',
    annotations: reads,
  },
  {
    name: 'set_stats',
    title: "A published set's statistics",
    description: "A published set's views, likes and comments over the last `days` days, per post and over time.",
    method: 'GET',
    path: '/api/stats/video/:idUpload',
    scope: 'read',
    annotations: reads,
  },
  {
    name: 'profile_stats',
    title: "A profile's statistics",
    description: "A profile's views, likes and comments over the last `days` days, per post and over time.",
    method: 'GET',
    path: '/api/stats/accounts/:id',
    scope: 'read',
    annotations: reads,
  },
];

type JsonSchema = { type?: unknown; properties?: Record<string, unknown>; required?: string[] } & Record<string, unknown>;

/** Where each argument of a tool goes in its route's request. */
export interface RequestParts {
  params: string[];
  query: string[];
  body: string[];
}

export interface Tool extends ToolRoute {
  inputSchema: JsonSchema & { type: 'object' };
  outputSchema: (JsonSchema & { type: 'object' }) | undefined;
  parts: RequestParts;
  /** Whether the route reads a JSON body. */
  takesBody: boolean;
}

/** A plain JSON copy: TypeBox's symbol keys left behind, the route's own objects never handed out. */
const plain = (schema: unknown) => JSON.parse(JSON.stringify(schema)) as JsonSchema;

const trimmed = (url: string) => (url.length > 1 && url.endsWith('/') ? url.slice(0, -1) : url);

/** The registered route the tool names; a route renamed or gone stops the server's start, not an agent's call. */
function routeOf(app: FastifyInstance, tool: ToolRoute): RouteOptions {
  const route = app.routeTable.find((candidate) => trimmed(candidate.url) === tool.path && [candidate.method].flat().includes(tool.method));
  if (!route) throw new Error(`MCP tool ${tool.name}: no route ${tool.method} ${tool.path}`);
  return route;
}

/**
 * The tool's schemas read from its route at start, so they are the contract's (src/lib/contract)
 * as the route validates and serialises with them, whatever it says tomorrow: the input is the
 * path parameters, the query and the JSON body side by side in one object (the MCP spec wants an
 * object at the root), the output the route's 2xx answer.
 */
export function toolOf(app: FastifyInstance, tool: ToolRoute): Tool {
  const schema = (routeOf(app, tool).schema ?? {}) as {
    params?: unknown;
    querystring?: unknown;
    body?: unknown;
    response?: Record<string, unknown>;
  };
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  const parts: RequestParts = { params: [], query: [], body: [] };
  const sources = [
    ['params', schema.params],
    ['query', schema.querystring],
    ['body', schema.body],
  ] as const;
  for (const [part, source] of sources) {
    if (source === undefined) continue;
    const object = plain(source);
    if (object.type !== 'object') throw new Error(`MCP tool ${tool.name}: the route's ${part} is not an object schema`);
    for (const [name, property] of Object.entries(object.properties ?? {})) {
      if (name in properties) throw new Error(`MCP tool ${tool.name}: ${name} is both a ${part} field and another part's`);
      properties[name] = property;
      parts[part].push(name);
    }
    required.push(...(object.required ?? []));
  }
  const answer = Object.entries(schema.response ?? {}).find(([status]) => /^2\d\d$/.test(status))?.[1];
  const output = answer === undefined ? undefined : plain(answer);
  return {
    ...tool,
    inputSchema: { type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false },
    outputSchema: output?.type === 'object' ? (output as Tool['outputSchema']) : undefined,
    parts,
    takesBody: schema.body !== undefined,
  };
}

/**
 * The route's URL for the call's arguments: path parameters in their places, the rest after `?`
 * unless the route reads a body, where its query's own fields only. Null without a path
 * parameter, a path that names nothing.
 */
export function urlOf(tool: Tool, args: Record<string, unknown>): string | null {
  // A dot segment would name another route once the URL is resolved: no row is named so.
  const named = (value: unknown) => ['string', 'number'].includes(typeof value) && !['.', '..'].includes(String(value));
  if (tool.parts.params.some((name) => !named(args[name]))) return null;
  const path = tool.path.replace(/:([A-Za-z]+)/g, (_, name: string) => encodeURIComponent(String(args[name])));
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(args)) {
    const inQuery = tool.takesBody ? tool.parts.query.includes(name) : !tool.parts.params.includes(name);
    if (inQuery && value !== undefined && value !== null) query.set(name, String(value));
  }
  const search = query.toString();
  return search ? `${path}?${search}` : path;
}

/** The JSON body for the call's arguments, when the route reads one: every argument that is not a path parameter or a query field. */
export function bodyOf(tool: Tool, args: Record<string, unknown>): Record<string, unknown> | undefined {
  if (!tool.takesBody) return undefined;
  const elsewhere = new Set([...tool.parts.params, ...tool.parts.query]);
  return Object.fromEntries(Object.entries(args).filter(([name]) => !elsewhere.has(name)));
}
