import { facebook } from './facebook';
import { instagram } from './instagram';
import { tiktok } from './tiktok';
import { youtube } from './youtube';

export type { PlatformDescriptor, PostingRules } from './descriptor';

/**
 * Every platform the product publishes to, in the order lists, columns and charts show them. Code
 * that is not a platform's own iterates this list and reads a platform's facts from its
 * descriptor; it never names a platform (an ESLint rule keeps it so). Adding a platform: docs/platforms.md.
 */
export const platforms = [youtube, tiktok, instagram, facebook] as const;

export type PlatformOf = (typeof platforms)[number];

/** One platform's id: the one Platform type of the SPA, the contract and the server. */
export type Platform = PlatformOf['id'];

/** The ids in order, as a non-empty tuple (Drizzle's and TypeBox's enums take one). */
export const platformIds = platforms.map((platform) => platform.id) as [Platform, ...Platform[]];

const byId = Object.fromEntries(platforms.map((platform) => [platform.id, platform])) as {
  [Id in Platform]: Extract<PlatformOf, { id: Id }>;
};

/** A platform's descriptor by its id. */
export function platformOf<Id extends Platform>(id: Id): (typeof byId)[Id] {
  return byId[id];
}

type ConsentPlatformOf = Extract<PlatformOf, { consent: 'installation-app' }>;

/** A platform a profile connects through the consent page of the installation's app. */
export type ConsentPlatform = ConsentPlatformOf['id'];

export const consentPlatformIds = platforms
  .filter((platform): platform is ConsentPlatformOf => platform.consent === 'installation-app')
  .map((platform) => platform.id) as [ConsentPlatform, ...ConsentPlatform[]];

type FieldKey = keyof PlatformOf['fields'];

/** The names `fields[field]` gives each platform: `views`, `viewsTikTok`, … for 'views'. */
export type PlatformFieldName<F extends FieldKey> = PlatformOf['fields'][F];

/**
 * A row's value of each platform's `fields[field]`, under the same names. The Drizzle rows of
 * accounts and videos take SPEC's field names, so a list answers them as the row holds them.
 */
export function platformValues<F extends FieldKey, Row extends Record<PlatformFieldName<F>, unknown>>(
  row: Row,
  field: F,
): Pick<Row, PlatformFieldName<F>> {
  return Object.fromEntries(
    platforms.map((platform) => [platform.fields[field], row[platform.fields[field] as PlatformFieldName<F>]]),
  ) as Pick<Row, PlatformFieldName<F>>;
}
