import {
  array,
  assign,
  boolean,
  coerce,
  defaulted,
  define,
  dynamic,
  enums,
  integer,
  min,
  nullable,
  number,
  object,
  omit,
  optional,
  refine,
  string,
  type,
  type Infer,
  type Struct,
  validate,
} from 'superstruct';
import {
  apiTokenScopes,
  type ApiTokenScope,
  type ConsentPlatform,
  type IpVersion,
  type PlatformName,
  type Role,
  type SavedSecrets,
  type SelectOption,
} from './contract';
import { maxLength } from './contract/limits';
import { isPastWallTime, kyivWallTime, wallTimePattern, yearAheadWallTime } from './kyiv-time';
import { platformIds, platforms, type Platform, type PlatformFieldName, type PlatformOf } from './platforms';
import { parseProxy } from './proxy';
import { tiktokPrivacyLevels } from './posting-rules/tiktok';
import { addTags } from './tags';
import { youtubePrivacyStatuses } from './posting-rules/youtube';
import * as t from './i18n';
import { text } from './validation';
import { isWellFormedSecret } from './webhook-secret';
import { alertEvents, telegramEvents, type AlertEvent } from './contract/lists';

/** One schema per form. The client validates with it, and the server checks the same schema again. */

export { loginSchema, type LoginForm } from './login-schema';

/** What the file rules look at: a browser File, or the name and declared type of a multipart part. */
export interface FileLike {
  name: string;
  type: string;
}

interface FileRules {
  min: [count: number, message: string];
  max?: [count: number, message: string];
  /** The declared MIME type must start with this ('image/', 'video/'). */
  type: [prefix: string, message: string];
}

function fileList(rules: FileRules): Struct<FileLike[], null> {
  return define<FileLike[]>('files', (value) => {
    const files = Array.isArray(value) ? (value as Partial<FileLike>[]) : [];
    if (files.length < rules.min[0]) return rules.min[1];
    if (rules.max && files.length > rules.max[0]) return rules.max[1];
    if (files.some((file) => typeof file?.type !== 'string' || !file.type.startsWith(rules.type[0]))) return rules.type[1];
    return true;
  });
}

export const photoUploadSchema = object({
  files: fileList({ min: [1, t.photos.atLeastOne], type: ['image/', t.photos.mustBeImage] }),
});
export type PhotoUploadForm = Infer<typeof photoUploadSchema>;

/** The spec's message for the images chosen in the upload form, or undefined when they will do. */
export function photoFilesError(files: FileLike[]): string | undefined {
  const [failure] = validate(files, photoUploadSchema.schema.files);
  return failure?.message;
}

/** The server's MAX_VARIANTS default; the server checks its own configured limit again. */
export const defaultMaxVariants = 50;

function variantCount(max: number): Struct<number, null> {
  const count = define<number>('countVideo', (value) => {
    if (value === undefined || value === null || Number.isNaN(value)) return t.createVideo.countRequired;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > max) return t.createVideo.countRange(max);
    return true;
  });
  // A text input and a multipart field both carry the number as text; text that is no number stays
  // text, so it is told apart from an empty field ('abc' is out of range, '' is missing).
  return coerce(count, string(), (raw) => (raw.trim() === '' ? Number.NaN : Number.isNaN(Number(raw)) ? raw : Number(raw)));
}

/** Most background images one request may use. */
export const maxBackgrounds = 500;
/** Postgres's integer: a larger id names no image, and the database would refuse it. */
const maxId = 2 ** 31 - 1;

/**
 * The ids of the chosen background images: at least one, each once; a multipart field carries them
 * as JSON. SPEC's create call has no such field, so it is optional: without it, every image of the
 * operator is used, as the screen chooses by default (or a blurred copy of the source when there are none).
 */
function backgroundChoice(): Struct<number[] | undefined, null> {
  const ids = define<number[]>('photoIds', (value) => {
    if (Array.isArray(value) && value.length === 0) return t.createVideo.backgroundsRequired;
    if (!Array.isArray(value)) return t.validation.invalidValue('photoIds');
    if (value.length > maxBackgrounds) return t.createVideo.backgroundsTooMany(maxBackgrounds);
    const wellFormed = value.every((id) => Number.isInteger(id) && id >= 1 && id <= maxId);
    if (!wellFormed || new Set(value).size !== value.length) return t.validation.invalidValue('photoIds');
    return true;
  });
  const parsed = coerce(ids, string(), (raw) => {
    try {
      return JSON.parse(raw) as unknown;
    } catch {
      return raw;
    }
  });
  return optional(parsed);
}

export function createVideoSchema(maxVariants = defaultMaxVariants) {
  return object({
    countVideo: variantCount(maxVariants),
    photoIds: backgroundChoice(),
    video: fileList({
      min: [1, t.createVideo.atLeastOne],
      max: [1, t.createVideo.atMostOne],
      type: ['video/', t.createVideo.mustBeVideo],
    }),
  });
}
export type CreateVideoForm = Infer<ReturnType<typeof createVideoSchema>>;

const backgroundChoiceRule = createVideoSchema().schema.photoIds;

/** The message for the background images chosen on the create form, or undefined when they will do. */
export function backgroundChoiceError(ids: number[]): string | undefined {
  const [failure] = validate(ids, backgroundChoiceRule);
  return failure?.message;
}

/* The back office: profiles, groups, tag sets and users. */

const optionalText = () => defaulted(text({}), '');
const flag = () => defaulted(boolean(), false);

/** The profile form's switch per platform (`isActiveYouTube`…), off when absent. */
const platformSwitches = () =>
  Object.fromEntries(platforms.map((platform) => [platform.fields.switchedOn, flag()])) as Record<
    PlatformFieldName<'switchedOn'>,
    Struct<boolean, null>
  >;

/**
 * The publish form's tick per platform (`inYouTube`…): required where SPEC names the platform,
 * and one added since may be absent, which is off (the descriptor's inSpec).
 */
const platformTicks = () =>
  Object.fromEntries(platforms.map((platform) => [platform.fields.ticked, platform.inSpec ? boolean() : optional(boolean())])) as {
    [P in PlatformOf as P['fields']['ticked']]: P['inSpec'] extends true ? Struct<boolean, null> : Struct<boolean | undefined, null>;
  };
const isSwitchedOn = (value: unknown, key: string) => isObject(value) && value[key] === true;
const isBlank = (value: unknown) => typeof value !== 'string' || value.trim() === '';
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

const ipVersion = defaulted(
  define<IpVersion>('ipVersion', (value) => value === 'ipv4' || value === 'ipv6' || t.accountForm.ipVersionInvalid),
  'ipv4',
);

/** A proxy in one of the formats src/lib/proxy.ts reads; the server reads it with the same code. */
const proxyField = define<string>('proxy', (value) => {
  if (isBlank(value)) return t.accountForm.proxyRequired;
  return parseProxy(value as string) !== null || t.accountForm.proxyInvalid;
});

/**
 * A platform's credentials are required only while that platform is switched on, and a secret
 * only while none is stored: a blank secret field keeps the stored one. A save made by a platform's
 * 'Підключити' (`connecting`) asks only for that platform's.
 */
function accountShape(
  on: Record<PlatformName, boolean>,
  saved: Partial<SavedSecrets>,
  linked: LinkedPlatforms,
  connecting: PlatformName | undefined,
) {
  const asked = (platform: PlatformName) => on[platform] && (connecting === undefined || connecting === platform);
  const [youtube, tiktok, instagram] = [asked('youtube'), asked('tiktok'), asked('instagram')];
  const when = (on: boolean, message: string) => (on ? text({ required: message }) : optionalText());
  const secretWhen = (on: boolean, field: keyof SavedSecrets, message: string) => when(on && !saved[field], message);
  return type({
    proxy: proxyField,
    ipVersion,
    comments: optionalText(),
    ...platformSwitches(),
    YouTubeAuthClientId: when(youtube, t.accountForm.clientIdRequired),
    YouTubeAuthClientSecret: secretWhen(youtube, 'YouTubeAuthClientSecret', t.accountForm.clientSecretRequired),
    YouTubeLogin: optionalText(),
    YouTubePassword: optionalText(),
    InstagramLogin: when(instagram && !linked.instagram, t.accountForm.instagramLoginRequired),
    InstagramPassword: secretWhen(instagram && !linked.instagram, 'InstagramPassword', t.accountForm.instagramPasswordRequired),
    InstagramAccessToken: optionalText(),
    InstagramUserId: optionalText(),
    TikTiokAuthStr: secretWhen(tiktok && !linked.tiktok, 'TikTiokAuthStr', t.accountForm.tiktokRequired),
  });
}
export type AccountForm = Infer<ReturnType<typeof accountShape>>;
/** The platforms a profile is connected to through their consent pages: neither a pasted string nor a login is then needed. */
export type LinkedPlatforms = Partial<Record<ConsentPlatform, boolean>>;

/**
 * The profile form of a profile whose `saved` secrets are stored (none for a new profile), its
 * `linked` platforms, and those the operator is connecting through their consent pages
 * (`connectByConsent`), which need nothing typed either.
 */
export function accountSchemaFor(
  saved: Partial<SavedSecrets>,
  linked: LinkedPlatforms = {},
  connectByConsent: readonly ConsentPlatform[] = [],
  connecting?: PlatformName,
) {
  const untyped = { ...linked, ...Object.fromEntries(connectByConsent.map((platform) => [platform, true])) };
  return dynamic<AccountForm>((value) =>
    accountShape(
      Object.fromEntries(platforms.map((platform) => [platform.id, isSwitchedOn(value, platform.fields.switchedOn)])) as Record<
        PlatformName,
        boolean
      >,
      saved,
      untyped,
      connecting,
    ),
  );
}
export const accountSchema = accountSchemaFor({});

/** A new profile's form: every platform off, every field blank. */
export const emptyAccountForm: AccountForm = {
  proxy: '',
  ipVersion: 'ipv4',
  comments: '',
  ...(Object.fromEntries(platforms.map((platform) => [platform.fields.switchedOn, false])) as Record<
    PlatformFieldName<'switchedOn'>,
    boolean
  >),
  YouTubeAuthClientId: '',
  YouTubeAuthClientSecret: '',
  YouTubeLogin: '',
  YouTubePassword: '',
  InstagramLogin: '',
  InstagramPassword: '',
  InstagramAccessToken: '',
  InstagramUserId: '',
  TikTiokAuthStr: '',
};

export const channelDescriptionSchema = type({
  description: text({ required: t.accountForm.descriptionRequired }),
});
export type ChannelDescriptionForm = Infer<typeof channelDescriptionSchema>;

/** At least one of the two; while both are empty each field says what it misses. */
function instagramProfileShape(bothEmpty: boolean) {
  return type({
    profileName: bothEmpty ? text({ required: t.accountForm.nameRequired }) : optionalText(),
    profileDescription: bothEmpty ? text({ required: t.accountForm.descriptionRequired }) : optionalText(),
  });
}
export type InstagramProfileForm = Infer<ReturnType<typeof instagramProfileShape>>;
export const instagramProfileSchema = dynamic<InstagramProfileForm>((value) =>
  instagramProfileShape(!isObject(value) || (isBlank(value.profileName) && isBlank(value.profileDescription))),
);

const selectedAccounts = define<SelectOption[]>(
  'accounts',
  (value) =>
    (Array.isArray(value) && value.length > 0 && value.every((item) => isObject(item) && Number.isInteger(item.id))) ||
    t.groups.accountsMin,
);

export const groupSchema = type({
  name: text({ required: t.validation.required }),
  accounts: selectedAccounts,
});
export type GroupForm = Infer<typeof groupSchema>;

/**
 * Each entry holds at least one tag. An entry holding several ('кіно, музика' from a script) is
 * kept split at the separators the tag input splits at (src/lib/tags.ts); one with nothing but
 * separators (' ', ',;') is refused, as the input never sends one.
 */
const tagList = define<string[]>(
  'tags',
  (value) =>
    (Array.isArray(value) && value.length > 0 && value.every((tag) => typeof tag === 'string' && addTags([], tag).length > 0)) ||
    t.tagSets.tagsMin,
);

export const tagSetSchema = type({
  name: text({ required: t.validation.required }),
  tags: tagList,
});
export type TagSetForm = Infer<typeof tagSetSchema>;

/** A new password and its repeat, by the user form's rules; `password` is the value the repeat must match. */
function newPasswordFields(password: unknown) {
  return {
    password: text({ required: t.validation.required, min: [6, t.validation.tooShort(6)], max: [50, t.validation.tooLong(50)] }),
    password_confirmation: define<string>('password_confirmation', (value) => {
      if (isBlank(value)) return t.validation.required;
      return value === password || t.users.passwordsMismatch;
    }),
  };
}

const userLogin = text({ required: t.validation.required, min: [2, t.validation.tooShort(2)], max: [50, t.validation.tooLong(50)] });

function userShape(password: unknown) {
  return type({ login: userLogin, ...newPasswordFields(password) });
}
export type UserForm = Infer<ReturnType<typeof userShape>>;
export const userSchema = dynamic<UserForm>((value) => userShape(isObject(value) ? value.password : undefined));

/** An admin's own record in the user form and PATCH /api/users/{own id}: the login only, the password changes in Settings. */
export const ownUserSchema = type({ login: userLogin });
export type OwnUserForm = Infer<typeof ownUserSchema>;

function passwordChangeShape(password: unknown) {
  return type({
    current_password: text({ required: t.validation.required, max: [50, t.validation.tooLong(50)] }),
    ...newPasswordFields(password),
  });
}
export type PasswordChangeForm = Infer<ReturnType<typeof passwordChangeShape>>;
/** The operator's own new password (Settings) and POST /api/auth/password. */
export const passwordChangeSchema = dynamic<PasswordChangeForm>((value) =>
  passwordChangeShape(isObject(value) ? value.password : undefined),
);

/* Posting slots (issue 31.2): a profile's or a group's hours in Kyiv, gap and days. */

/** Slots' hours fall on these steps, so an hour typed as 09:03 is caught before a spread plans by it. */
export const slotMinuteStep = 5;
/** A gap of a whole day: the longest that still lets a profile post every day it posts. */
export const maxSlotGapMinutes = 1440;
const slotTimePattern = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** The minutes after midnight of a slot's `HH:MM`, or null when it is no time on the step. */
export function slotMinutes(value: unknown): number | null {
  const match = typeof value === 'string' ? slotTimePattern.exec(value) : null;
  if (!match) return null;
  const minutes = Number(match[1]) * 60 + Number(match[2]);
  return minutes % slotMinuteStep === 0 ? minutes : null;
}

const isWeekday = (day: unknown) => typeof day === 'number' && Number.isInteger(day) && day >= 1 && day <= 7;

/** `from` is the start the end must come after; a window never runs past midnight. */
function postingSlotsShape(from: unknown) {
  const start = slotMinutes(from);
  return type({
    from: define<string>('from', (value) => slotMinutes(value) !== null || t.postingSlots.fromInvalid),
    to: define<string>('to', (value) => {
      const end = slotMinutes(value);
      if (end === null) return t.postingSlots.toInvalid;
      return start === null || end > start || t.postingSlots.toNotAfterFrom;
    }),
    minGapMinutes: define<number>(
      'minGapMinutes',
      (value) =>
        (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= maxSlotGapMinutes) || t.postingSlots.gapInvalid,
    ),
    days: define<number[]>('days', (value) => {
      if (Array.isArray(value) && value.length === 0) return t.postingSlots.daysRequired;
      return (Array.isArray(value) && value.every(isWeekday) && new Set(value).size === value.length) || t.postingSlots.daysInvalid;
    }),
  });
}
export type PostingSlotsForm = Infer<ReturnType<typeof postingSlotsShape>>;
/** The slots section of the profile and group forms, PUT …/slots, and the installation's POSTING_* settings. */
export const postingSlotsSchema = dynamic<PostingSlotsForm>((value) => postingSlotsShape(isObject(value) ? value.from : undefined));

const publishVideo = type({
  id: number(),
  // The request detail's link sent back as it came: null until rendered, and read by no one.
  url: nullable(string()),
  idUpload: string(),
  createdAt: string(),
  account: optional(nullable(type({ id: number(), title: string(), value: number() }))),
  date: optional(nullable(string())),
});

/** At least one video, each whole; a broken item is named by its place in the list and its field. */
const publishVideoList = define<Infer<typeof publishVideo>[]>('video', (value) => {
  if (!Array.isArray(value) || value.length === 0) return t.publish.videoMin;
  for (const [index, item] of value.entries()) {
    const [failure] = validate(item, publishVideo);
    if (!failure) continue;
    const field = failure.path.join('.') || 'video';
    return failure.value === undefined ? t.publish.videoFieldMissing(index + 1, field) : t.publish.videoFieldInvalid(index + 1, field);
  }
  return true;
});

/** What is wrong with a publish date as the form holds it (a Kyiv wall time): passed, or more than a year ahead. */
export function publishDateProblem(value: string, now: number): string | undefined {
  if (!wallTimePattern.test(value)) return undefined;
  if (isPastWallTime(value, now)) return t.publish.pastDate;
  if (value > yearAheadWallTime(now)) return t.publish.tooFarAhead;
  return undefined;
}

/** A publish date: none, or a Kyiv time from now, when checked, to a year ahead (the server checks every date again as it plans). */
const publishDate = (now: () => number) =>
  optional(nullable(refine(string(), 'date', (value) => publishDateProblem(value, now()) ?? true)));

const optionalFlag = () => optional(boolean());

/**
 * The platforms' own choices of a post (POST /api/upload-video/{idUpload} `options`, and a
 * profile's saved defaults), in the platforms' field names; src/lib/posting-rules decides what is
 * required and what a profile's creator allows.
 */
export const postOptionsSchema = type({
  tiktok: optional(
    type({
      privacyLevel: optional(enums([...tiktokPrivacyLevels])),
      disableComment: optionalFlag(),
      disableDuet: optionalFlag(),
      disableStitch: optionalFlag(),
      brandContentToggle: optionalFlag(),
      brandOrganicToggle: optionalFlag(),
    }),
  ),
  youtube: optional(
    type({
      privacyStatus: optional(enums([...youtubePrivacyStatuses])),
      selfDeclaredMadeForKids: optionalFlag(),
      categoryId: optional(string()),
    }),
  ),
  instagram: optional(type({ shareToFeed: optionalFlag(), thumbOffset: optional(min(integer(), 0)) })),
});
export type PostOptionsForm = Infer<typeof postOptionsSchema>;

/**
 * Issue 43.2: a platform's own words (POST /api/upload-video/{idUpload} `texts`), keyed by the
 * registry's platforms; a field left out takes the set's. Their limits need the chosen profiles and
 * the videos, so the form and the route check them with src/lib/post-texts.ts (textProblems).
 */
const platformTextSchema = optional(type({ title: optional(string()), description: optional(string()), tags: optional(array(string())) }));
const platformTextsSchema = type(
  Object.fromEntries(platformIds.map((id) => [id, platformTextSchema])) as Record<Platform, typeof platformTextSchema>,
);

/** The part of the publish form the publish machine checks: chosen profiles and the videos left. */
const publishAssignment = { accounts: selectedAccounts, video: publishVideoList };
export const publishAssignmentSchema = type(publishAssignment);

/**
 * The publish form (/video/request/{idUpload}); the server checks POST /api/upload-video/{idUpload}
 * with it. `now` is the browser's or the server's clock: this module, shared by both, never reads the time itself.
 */
export function publishSchema(now: () => number) {
  return type({
    title: text({ required: t.publish.nameRequired }),
    description: optionalText(),
    tags: tagList,
    ...publishAssignment,
    ...platformTicks(),
    date: publishDate(now),
    options: optional(postOptionsSchema),
    texts: optional(platformTextsSchema),
  });
}
export type PublishForm = Infer<ReturnType<typeof publishSchema>>;
/** The publish form's own fields; the profiles and the videos belong to the publish machine. */
export const publishFieldsSchema = (now: () => number) => omit(publishSchema(now), ['accounts', 'video']);
export type PublishFields = Infer<ReturnType<typeof publishFieldsSchema>>;

/** The longest span the spread plans in one go: a month, as the calendar shows. */
export const maxSpreadDays = 31;
const calendarDay = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A `YYYY-MM-DD` that names a real day, as milliseconds at its UTC midnight; null otherwise. */
export function dayValue(value: unknown): number | null {
  const match = typeof value === 'string' ? calendarDay.exec(value) : null;
  if (!match) return null;
  const at = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return new Date(at).toISOString().slice(0, 10) === value ? at : null;
}

/**
 * `from` is the day the end must not come before; `today` the Kyiv day an end may not be before,
 * `yearAhead` the day a year on, which an end must come before: every slot of the spread's last
 * day is then within the year a publish takes.
 */
function spreadShape(from: unknown, today: string, yearAhead: string) {
  const start = dayValue(from);
  return type({
    from: define<string>('from', (value) => dayValue(value) !== null || t.spread.fromInvalid),
    to: define<string>('to', (value) => {
      const end = dayValue(value);
      if (end === null) return t.spread.toInvalid;
      if (value! < today) return t.spread.toPast;
      if (value! >= yearAhead) return t.spread.tooFarAhead;
      if (start === null) return true;
      if (end < start) return t.spread.toBeforeFrom;
      return (end - start) / 86_400_000 < maxSpreadDays || t.spread.tooLong(maxSpreadDays);
    }),
    mode: optional(enums(spreadModes)),
  });
}

/** The spread's dates in the publish form; POST /api/upload-video/{idUpload}/spread checks them again. */
export function spreadSchema(now: number) {
  const today = kyivWallTime(now).slice(0, 10);
  const yearAhead = yearAheadWallTime(now).slice(0, 10);
  return dynamic<SpreadForm>((value) => spreadShape(isObject(value) ? value.from : undefined, today, yearAhead));
}
/** Issue 43.1: even over the days, or the earliest free slots. */
export const spreadModes = ['even', 'soonest'] as const;
export type SpreadForm = { from: string; to: string; mode?: (typeof spreadModes)[number] };

/** The edit form of a published set (/video/youtube/{idUpload}) and PATCH /api/upload-video/{idUpload}. */
export const publishedEditSchema = type({
  title: text({ required: t.publish.nameRequired }),
  description: optionalText(),
  tags: tagList,
});
export type PublishedEditForm = Infer<typeof publishedEditSchema>;

/* Personal API tokens (issue 32.4). */

/** The longest a token lives; the form offers a few lengths up to it. */
export const maxApiTokenDays = 365;
export const apiTokenDayChoices = [7, 30, 90, maxApiTokenDays] as const;

/** The new token form of a user with `role` and POST /api/tokens: a token's scope is never above its user's role. */
export function apiTokenSchemaFor(role: Role) {
  return object({
    name: text({ required: t.apiTokens.nameRequired, max: [maxLength.tokenName, t.validation.tooLong(maxLength.tokenName)] }),
    scope: define<ApiTokenScope>('scope', (value) => {
      if (!apiTokenScopes.includes(value as ApiTokenScope)) return t.apiTokens.scopeRequired;
      return value !== 'admin' || role === 'admin' || t.apiTokens.scopeAboveRole;
    }),
    expiresInDays: define<number>(
      'expiresInDays',
      (value) =>
        (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= maxApiTokenDays) ||
        t.apiTokens.expiryRange(maxApiTokenDays),
    ),
  });
}
export type ApiTokenForm = Infer<ReturnType<typeof apiTokenSchemaFor>>;

/** Where a webhook sends and what (Settings' edit form, PATCH /api/webhooks/{id}): an http(s) URL and at least one event. */
export const webhookTargetSchema = type({
  url: define<string>('url', (value) => {
    if (typeof value !== 'string' || value.trim() === '') return t.validation.required;
    if (value.length > maxLength.webhookUrl) return t.validation.tooLong(maxLength.webhookUrl);
    return /^https?:\/\/[^\s/?#]+[^\s]*$/i.test(value.trim()) || t.webhooks.urlInvalid;
  }),
  events: define<AlertEvent[]>('events', (value) => {
    if (!Array.isArray(value) || value.length === 0) return t.webhooks.eventsRequired;
    return value.every((event) => (alertEvents as readonly unknown[]).includes(event)) || t.webhooks.eventsRequired;
  }),
});
export type WebhookTargetForm = Infer<typeof webhookTargetSchema>;

/** The webhook form (Settings) and POST /api/webhooks: the target, and a secret long enough to guess at no better than a key. */
export const webhookSchema = assign(
  webhookTargetSchema,
  type({
    secret: refine(
      text({
        required: t.validation.required,
        min: [16, t.webhooks.secretTooShort],
        max: [maxLength.webhookSecret, t.validation.tooLong(maxLength.webhookSecret)],
      }),
      'standardSecret',
      (value) => isWellFormedSecret(value) || t.webhooks.standardSecretInvalid,
    ),
  }),
);
export type WebhookForm = Infer<typeof webhookSchema>;

/** What to be told in Telegram (Settings) and PUT /api/telegram. */
export const telegramChoicesSchema = type({
  events: array(enums(telegramEvents)),
  digest: boolean(),
});
export type TelegramChoicesForm = Infer<typeof telegramChoicesSchema>;

/* Statistics over a period (issue 32.5): the top videos and the CSV export. */

/** The longest period the statistics screen reads and exports: a year, its leap day included. */
export const maxStatsDays = 366;
const dayPattern = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The day number (days since 1970-01-01) of a `YYYY-MM-DD` that names a real day, else null. */
export function dayNumber(value: unknown): number | null {
  const match = typeof value === 'string' ? dayPattern.exec(value) : null;
  if (!match) return null;
  const [year, month, day] = match.slice(1).map(Number) as [number, number, number];
  const moment = new Date(Date.UTC(year, month - 1, day));
  if (moment.getUTCFullYear() !== year || moment.getUTCMonth() !== month - 1 || moment.getUTCDate() !== day) return null;
  return moment.getTime() / 86_400_000;
}

const dayFailure = (value: unknown) =>
  value === undefined || value === null || value === '' ? t.statsScreen.dateRequired : t.statsScreen.dateInvalid;

/** `from` is the start the end must not come before; both are Kyiv days, `YYYY-MM-DD`, at most a year apart. */
function statsRangeShape(from: unknown) {
  const start = dayNumber(from);
  return type({
    from: define<string>('from', (value) => dayNumber(value) !== null || dayFailure(value)),
    to: define<string>('to', (value) => {
      const end = dayNumber(value);
      if (end === null) return dayFailure(value);
      if (start === null) return true;
      if (end < start) return t.statsScreen.rangeReversed;
      return end - start + 1 <= maxStatsDays || t.statsScreen.rangeTooLong(maxStatsDays);
    }),
  });
}
export type StatsRangeForm = Infer<ReturnType<typeof statsRangeShape>>;
/** The period of the statistics filters: GET /api/stats/top and /api/stats/export.csv check theirs with it. */
export const statsRangeSchema = dynamic<StatsRangeForm>((value) => statsRangeShape(isObject(value) ? value.from : undefined));

const statsScopePattern = /^(|account:\d+|group:\d+)$/;

/** The period, then whose posts: '' for every profile, `account:{id}` or `group:{id}` (one choice, so never both), and a platform or ''. */
function statsFiltersShape(from: unknown) {
  return type({
    ...statsRangeShape(from).schema,
    scope: define<string>(
      'scope',
      (value) => (typeof value === 'string' && statsScopePattern.test(value)) || t.validation.invalidValue('scope'),
    ),
    platform: define<PlatformName | ''>(
      'platform',
      (value) => value === '' || platformIds.includes(value as PlatformName) || t.validation.invalidValue('platform'),
    ),
  });
}
export type StatsFiltersForm = Infer<ReturnType<typeof statsFiltersShape>>;
/** The statistics screen's filters and its export dialog. */
export const statsFiltersSchema = dynamic<StatsFiltersForm>((value) => statsFiltersShape(isObject(value) ? value.from : undefined));
