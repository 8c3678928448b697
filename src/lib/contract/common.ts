import { Type, type TBoolean, type TLiteral, type TOptional, type TSchema, type TUnion } from '@sinclair/typebox';
import { platformIds, platforms, type Platform as PlatformId, type PlatformOf } from '../platforms';
import { postStates, waitKinds } from './lists';

/**
 * The building blocks of every route's JSON schemas. Fastify validates params, query and body
 * with them before a handler runs, and serializes answers with them, so a field a schema does
 * not declare (a secret, say) never leaves the server by accident.
 */

/** The largest id a Postgres `serial`/`integer` column holds. */
export const maxId = 2_147_483_647;

export const Id = Type.Integer({ minimum: 1, maximum: maxId });

/**
 * Text without control characters (NUL and friends), which Postgres refuses or which have no
 * place in a form, and without lone surrogates ("\ud800" in JSON), which are no character at all
 * and would be stored as '�'; tabs and line breaks stay allowed. ajv matches patterns with the `u`
 * flag (its `unicodeRegExp` default), under which the surrogate range matches only a lone half:
 * a pair is one character, an emoji say, and passes.
 */
export function Text(maxLength: number, options: { minLength?: number } = {}) {
  return Type.String({ maxLength, pattern: '^[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F\\uD800-\\uDFFF]*$', ...options });
}

export const Uuid = Type.String({ pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' });

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const IdParams = Type.Object({ id: Id }, { additionalProperties: false });
export const IdUploadParams = Type.Object({ idUpload: Uuid }, { additionalProperties: false });

/** Pages start at 1; the bound keeps the offset a number Postgres takes. */
const page = Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 }));
export const PageQuery = Type.Object({ page });

type TLiterals<Values extends readonly string[]> = { -readonly [K in keyof Values]: TLiteral<Values[K]> };

/** One of the given words (`anyOf` their constants), typed as their union. */
export const Literals = <const Values extends readonly string[]>(values: Values) =>
  Type.Union(values.map((value) => Type.Literal(value))) as TUnion<TLiterals<Values>>;

export const Platform = Literals(platformIds);

/** One optional property per platform, keyed by its id: `{ youtube?: S, tiktok?: S, … }`. */
export function PerPlatform<S extends TSchema>(schema: S) {
  const properties = Object.fromEntries(platformIds.map((platform) => [platform, Type.Optional(schema)]));
  return Type.Object(properties as unknown as { [Id in PlatformId]: TOptional<S> }, { additionalProperties: false });
}

type FieldKey = keyof PlatformOf['fields'];

/** One property per platform, named as its descriptor's `fields[field]` names it: `{ views, viewsTikTok, … }`. */
export function platformFields<F extends FieldKey, S extends TSchema>(field: F, schema: S) {
  return Object.fromEntries(platforms.map((platform) => [platform.fields[field], schema])) as { [P in PlatformOf as P['fields'][F]]: S };
}

/** A request's switch per platform: required where SPEC names the platform, optional (off) for one added since. */
export function platformFlags<F extends FieldKey>(field: F) {
  return Object.fromEntries(
    platforms.map((platform) => [platform.fields[field], platform.inSpec ? Type.Boolean() : Type.Optional(Type.Boolean())]),
  ) as { [P in PlatformOf as P['fields'][F]]: P['inSpec'] extends true ? TBoolean : TOptional<TBoolean> };
}

/** Why a pending post waits (src/lib/post-waits.ts). */
export const WaitKind = Literals(waitKinds);

const search = Type.Optional(Type.String({ maxLength: 100 }));

/** A page of a list the operator can search and narrow by platform. */
export const SearchPageQuery = Type.Object({ page, q: search, platform: Type.Optional(Platform) });

/** A page of a list the operator can search and narrow by platform and by one of its `statuses`. */
export const FilteredPageQuery = <const Statuses extends readonly string[]>(statuses: Statuses) =>
  Type.Object({ page, q: search, status: Type.Optional(Literals(statuses)), platform: Type.Optional(Platform) });

/** What a page of any list says besides its items. */
export const PageInfo = Type.Object({ page: Type.Integer(), totalPages: Type.Integer(), total: Type.Integer() });

export const Paged = <T extends TSchema>(item: T) => Type.Object({ data: Type.Array(item), ...PageInfo.properties });

export const ErrorBody = Type.Object({
  statusCode: Type.Integer(),
  error: Type.String(),
  message: Type.Union([Type.String(), Type.Array(Type.String())]),
});

/** The error answers every route may give, on top of its own. */
export const errorResponses = { '4xx': ErrorBody, '5xx': ErrorBody };

/** Typed as nothing, so a handler answers it with a bare `send()`. */
export const NoContent = Type.Unsafe<void>({ type: 'null', description: 'No content' });

export const Role = Literals(['admin', 'user']);

export const SessionUser = Type.Object({ id: Id, login: Type.String(), role: Role });

export const SelectOption = Type.Object({ id: Id, title: Type.String(), value: Id });

export const TagSet = Type.Object({ id: Id, name: Type.String(), tags: Type.Array(Type.String()) });

export const AccountGroup = Type.Object({ id: Id, name: Type.String(), accounts: Type.Array(SelectOption) });

export const VideoStatus = Literals(['loading', 'publication', 'success', 'error', 'noactive', 'cancelled']);

/** What a post is doing (src/lib/post-states.ts). */
export const PostState = Literals(postStates);

/**
 * Not SPEC's (issue 39): one post of a video, on one platform. `kind`: why it waits (a WaitKind)
 * while it waits, why it failed once failed, else null. `error`: the failure's words, for a failed
 * post only. `date` (ISO): when it went out, else when it is (or was) planned.
 */
/** A post's own final words where they are not its set's (null fields are the set's); issue 43.2. */
export const PostOwnWords = Type.Object({
  title: Nullable(Type.String()),
  description: Nullable(Type.String()),
  tags: Nullable(Type.Array(Type.String())),
});

export const VideoPost = Type.Object({
  platform: Platform,
  state: PostState,
  kind: Nullable(Type.String()),
  url: Nullable(Type.String()),
  error: Nullable(Type.String()),
  date: Type.String(),
  /**
   * Issue 43.2: the post's own final words where they are not its set's (null fields are the set's),
   * on a set's own page; src/lib/post-texts.ts (wordsOf) reads the words it goes out with.
   */
  words: Type.Optional(PostOwnWords),
});

const Count = Type.Integer({ minimum: 0 });

/**
 * Not SPEC's (issue 39): a set's posts by state, so a half-published set says so. `scheduled`
 * counts the posts still on their way, their upload started or not.
 */
export const PostCounts = Type.Object({ published: Count, scheduled: Count, held: Count, failed: Count, cancelled: Count });

/** `title`: the profile's name (its comment, else the account it reaches), where the list sends it. */
export const VideoAccount = Nullable(Type.Object({ id: Id, title: Type.Optional(Type.String()) }));

export const VideoSummary = Type.Object({
  id: Id,
  date: Nullable(Type.String()),
  status: VideoStatus,
  // Each platform's figures and link (SPEC's YouTube `views`… and Instagram's; TikTok's since issue 28.0), its link telling it was posted there.
  ...platformFields('views', Type.Integer()),
  ...platformFields('likes', Type.Integer()),
  ...platformFields('comments', Type.Integer()),
  ...platformFields('url', Nullable(Type.String())),
  // Each platform's failure, worded: SPEC's `error` (YouTube's, or the render's) and `errorInstagram`, then the others'.
  ...platformFields('error', Nullable(Type.String())),
  account: VideoAccount,
  /** Issue 39: its posts, one per platform it goes to, in the platforms' order. */
  posts: Type.Array(VideoPost),
});
