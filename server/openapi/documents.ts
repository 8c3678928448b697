import type { FastifyDynamicSwaggerOptions, SwaggerTransform } from '@fastify/swagger';
import type { FastifyRequest, FastifySchema } from 'fastify';
import type { OpenAPIV3 } from 'openapi-types';
import { ErrorBody } from '../../src/lib/contract/common';
import { operationNotes, refusalDescriptions, sandboxWords, tagDescriptions } from './operations';
import { recheckedRequired } from './rechecks';

/*
 * The two OpenAPI 3 documents this server describes itself in (OpenAPI 3.0.3,
 * https://spec.openapis.org/oas/v3.0.3): the operators' API at /api/docs and the platform
 * emulator at /sandbox/docs. Both come from the route schemas through @fastify/swagger, registered
 * once per document with its own `decorator` (its README, "register.options.decorator"): `transform`
 * picks each document's routes and spells their paths, `transformObject` names and explains each
 * operation.
 */

type Document = OpenAPIV3.Document;
type Operation = OpenAPIV3.OperationObject;
const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/**
 * The operation's stable name, from its method and path: `GET /api/accounts/{id}` is
 * `getAccountsById`, `POST /api/upload-video/{idUpload}/spread` `postUploadVideoByIdUploadSpread`.
 * A generated client names its functions so; renaming a route renames them, nothing else does.
 */
export function operationIdOf(method: string, path: string): string {
  const words = path
    .replace(/^\/(api|sandbox)(?=\/)/, '')
    .replace(/\{(\w+)\}/g, ' by $1 ')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  // The sandbox answers some paths with and without a trailing slash, as the platform it plays does.
  const slash = path.length > 1 && path.endsWith('/') ? 'Slash' : '';
  return method.toLowerCase() + words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join('') + slash;
}

/** The resource an API path belongs to, its tag: the first part after /api. */
function apiTagOf(path: string): string {
  return path.startsWith('/api/') ? path.split('/')[2]! : 'health';
}

const isApiPath = (url: string) => url.startsWith('/api/') || url === '/healthz' || url === '/readyz';
const isSandboxPath = (url: string) => url.startsWith('/sandbox/');

/**
 * The route as the document shows it. A prefix's `/` route answers at `/api/accounts` and
 * `/api/accounts/` (Fastify's `prefixTrailingSlash: 'both'`, its Routes reference), and
 * @fastify/swagger sees it once, under the second: the document names SPEC's, without the slash.
 * The media route's wildcard becomes a named parameter, `{path}`, which OpenAPI requires.
 */
function documentedRoute({ schema, url, route }: Parameters<SwaggerTransform>[0], oneSpelling: boolean) {
  type Shown = FastifySchema & { parts?: unknown; produces?: readonly string[]; response?: Record<string, unknown> };
  let shown = { ...schema } as Shown;
  // Fastify sets both on the route it hands to onRoute, though its RouteOptions type does not list them.
  const { routePath, prefix } = route as { routePath?: string; prefix?: string };
  let path = oneSpelling && routePath === '/' && prefix ? prefix : url;
  if (path.endsWith('/*')) {
    path = `${path.slice(0, -1)}:path`;
    const params = shown.params as { properties?: Record<string, unknown> } | undefined;
    shown.params = { type: 'object', properties: { path: params?.properties?.['*'] ?? { type: 'string' } }, required: ['path'] };
  }
  // Multipart parts are read as they stream in (server/media/uploads.ts), so the route validates no
  // body; the document shows the parts its contract lists.
  if (shown.parts) shown = { ...shown, body: shown.parts };
  // A file's bytes, not JSON: the 2xx a route that `produces` files does not declare for its serializer.
  if (shown.produces && !Object.keys(shown.response ?? {}).some((code) => code.startsWith('2'))) {
    const text = shown.produces.every((type) => type.startsWith('text/'));
    const file = { type: 'string', ...(text ? {} : { format: 'binary' }), description: text ? 'The file' : "The file's bytes" };
    const partial = text ? {} : { 206: { ...file, description: 'The part of the file the Range header asked for' } };
    shown.response = { 200: file, ...partial, ...shown.response };
  }
  return { schema: shown, url: path };
}

const errorSchemaRef = { $ref: '#/components/schemas/Error' };

function refusal(status: number): OpenAPIV3.ResponseObject {
  return {
    description: refusalDescriptions[status]!,
    ...(status === 429 ? { headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait' } } } : {}),
    content: { 'application/json': { schema: errorSchemaRef } },
  };
}

/**
 * Every error is JSON in SPEC's shape, whatever the route's files are (the CSV export, media);
 * only the OAuth pages a browser lands on answer HTML.
 */
function errorMediaTypes(operation: Operation) {
  for (const [status, response] of Object.entries(operation.responses)) {
    if (/^[23]/.test(status) || !('content' in response) || !response.content) continue;
    const schema = Object.values(response.content)[0]?.schema as OpenAPIV3.SchemaObject | undefined;
    response.content = { [schema?.type === 'string' ? 'text/html' : 'application/json']: { schema } };
  }
}

/** The answers the schemas cannot tell: who may call, and which refusals. */
function apiOperation(path: string, method: string, operation: Operation): Operation {
  const operationId = operationIdOf(method, path);
  const notes = operationNotes[operationId];
  const result: Operation = { ...operation, operationId, summary: notes?.summary, tags: [apiTagOf(path)] };
  const access = notes?.access;
  if (access === 'public') result.security = [];
  // `{}` first: without a bearer the answer is the probe's; with an admin's, the engine's figures too.
  if (access === 'optional') result.security = [{}, { session: [] }, { apiToken: [] }];
  const parameters = (operation.parameters ?? []) as OpenAPIV3.ParameterObject[];
  // A body that is no JSON, or in a charset other than UTF-8, is refused on any route that may carry one (server/json-body.ts).
  const hasInput = parameters.length > 0 || operation.requestBody !== undefined || method !== 'get';
  const codes = [
    hasInput && path.startsWith('/api/') ? 400 : 0,
    access === undefined ? 401 : 0,
    access === undefined ? 403 : 0,
    parameters.some((parameter) => parameter.in === 'path') ? 404 : 0,
    operation.requestBody ? 413 : 0,
    // Every guarded route counts a bad bearer's guesses (server/auth/guards.ts).
    access === undefined ? 429 : 0,
    ...(notes?.refusals ?? []),
  ].filter((code) => code > 0);
  const required = recheckedRequired(operationId);
  const body = (operation.requestBody as OpenAPIV3.RequestBodyObject | undefined)?.content['application/json'];
  if (body && required.length > 0) {
    const schema = body.schema as OpenAPIV3.SchemaObject;
    const declared = required.filter((field) => schema.properties?.[field]);
    body.schema = { ...schema, required: [...new Set([...(schema.required ?? []), ...declared])] };
  }
  const responses = { ...operation.responses };
  for (const code of codes) responses[code] ??= refusal(code);
  result.responses = responses;
  errorMediaTypes(result);
  return result;
}

/**
 * An emulator operation: tagged by the host it plays, or `controls` for the emulator's own
 * (/sandbox/_faults..., `isControl` as server/sandbox/index.ts guards them).
 */
function sandboxOperation(isControl: (path: string) => boolean, path: string, method: string, operation: Operation): Operation {
  const tag = isControl(path) ? 'controls' : path.split('/')[2]!.replace(/^_/, '');
  const call = `${method.toUpperCase()} ${path}`;
  const control = tag === 'controls';
  const result: Operation = {
    ...operation,
    operationId: operationIdOf(method, path),
    summary: control ? sandboxWords.control(call) : sandboxWords.emulated(tag, call),
    tags: [tag],
    // The emulated calls carry the platform's own credentials, as its API documents them; the controls an admin's bearer.
    security: control ? [{ session: [] }, { apiToken: [] }] : [],
  };
  errorMediaTypes(result);
  return result;
}

function eachOperation(
  document: Document,
  change: (path: string, method: string, operation: Operation) => Operation,
  describeTag: (name: string) => string | undefined,
): Document {
  const paths: OpenAPIV3.PathsObject = {};
  for (const [path, item] of Object.entries(document.paths)) {
    const changed: OpenAPIV3.PathItemObject = { ...item };
    for (const method of methods) {
      const operation = item?.[method];
      if (operation) changed[method] = change(path, method, operation);
    }
    paths[path] = changed;
  }
  const used = [...new Set(Object.values(paths).flatMap((item) => methods.flatMap((method) => item?.[method]?.tags ?? [])))];
  return {
    ...document,
    paths,
    tags: used.map((name) => ({ name, description: describeTag(name) })),
  };
}

const bearerSchemes = {
  session: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'The access token of a signed-in session (POST /api/auth/login)',
  },
  apiToken: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'sho_…',
    description:
      'A personal API token (POST /api/tokens, from a session). Its scope: read (GET and HEAD only), publish (what an operator does), admin (everything; admins only).',
  },
} as const;

/** The operators' API, /api/docs: every /api route and the health probes, nothing of the sandbox or /mcp. */
export const apiDocumentOptions: FastifyDynamicSwaggerOptions = {
  openapi: {
    info: {
      title: 'Shorts Office API',
      version: '1',
      description:
        'The API the Shorts Office web app uses, open to scripts with a personal API token. docs/api.md says how to generate a client.',
    },
    components: { securitySchemes: bearerSchemes, schemas: { Error: ErrorBody as OpenAPIV3.SchemaObject } },
    security: [{ session: [] }, { apiToken: [] }],
  },
  transform: (route) => {
    const shown = documentedRoute(route, true);
    return isApiPath(route.url) ? shown : { ...shown, schema: { ...shown.schema, hide: true } };
  },
  transformObject: (document) =>
    eachOperation((document as { openapiObject: Document }).openapiObject, apiOperation, (tag) => tagDescriptions[tag]),
};

/** The platform emulator, /sandbox/docs: what the sandbox answers in place of Google, TikTok, Meta and Telegram. */
export const sandboxDocumentOptions = (isControl: (path: string) => boolean): FastifyDynamicSwaggerOptions => ({
  decorator: 'sandboxSwagger',
  openapi: {
    components: { securitySchemes: bearerSchemes },
    info: {
      title: 'Shorts Office sandbox',
      version: '1',
      description:
        "The platforms' APIs as the sandbox emulates them (PLATFORMS=sandbox), and its controls (/sandbox/_*, for admins). Each emulated call answers as the platform's own API documents it.",
    },
  },
  // The emulated platforms' own paths, trailing slashes and all (TikTok's end in one).
  transform: (route) => {
    const shown = documentedRoute(route, false);
    return isSandboxPath(route.url) ? shown : { ...shown, schema: { ...shown.schema, hide: true } };
  },
  transformObject: (document) =>
    eachOperation(
      (document as { openapiObject: Document }).openapiObject,
      (path, method, operation) => sandboxOperation(isControl, path, method, operation),
      (tag) => (tag === 'controls' ? sandboxWords.controlsTag : sandboxWords.hostTag(tag)),
    ),
});

/**
 * Where a client sends its calls: PUBLIC_URL when configured (always, in a deployed server), else
 * the origin the document was asked at (a test's or a developer's own server).
 */
export function documentServers(publicUrl: string | undefined, request: FastifyRequest): OpenAPIV3.ServerObject[] {
  return [{ url: (publicUrl ?? `${request.protocol}://${request.host}`).replace(/\/+$/, '') }];
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The sandbox's document, as `swagger()` is the API's. */
    sandboxSwagger: FastifyInstance['swagger'];
  }
}
