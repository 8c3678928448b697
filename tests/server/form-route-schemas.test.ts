import { describe, expect, it } from 'vitest';
import { is, type Struct } from 'superstruct';
import type { TObject, TSchema } from '@sinclair/typebox';
import {
  accountSchema,
  apiTokenSchemaFor,
  channelDescriptionSchema,
  groupSchema,
  instagramProfileSchema,
  loginSchema,
  passwordChangeSchema,
  postingSlotsSchema,
  publishedEditSchema,
  publishSchema,
  tagSetSchema,
  telegramChoicesSchema,
  userSchema,
  webhookSchema,
} from '../../src/lib/schemas';
import { telegramSchemas, webhookSchemas } from '../../src/lib/contract/alerts';
import { authSchemas } from '../../src/lib/contract/auth';
import { accountSchemas } from '../../src/lib/contract/accounts';
import { groupSchemas, tagSchemas } from '../../src/lib/contract/groups-tags';
import { userSchemas } from '../../src/lib/contract/users';
import { uploadVideoSchemas } from '../../src/lib/contract/media';
import { postingSlotsSchemas } from '../../src/lib/contract/posting-slots';
import { apiTokenSchemas } from '../../src/lib/contract/api-tokens';
import { emptyAccount } from './backoffice-fixtures';

/**
 * The SPA's forms check their input with superstruct (src/lib/schemas.ts), the routes with JSON
 * schemas (src/lib/contract/). Both sides are kept in step here: a form and its route know
 * the same fields, and where a form limits a text's length, the limit is the route's.
 */

const option = { id: 1, title: '#1', value: 1 };
const cases: { name: string; form: Struct<any, any>; route: TObject; valid: Record<string, unknown>; routeOnly?: string[] }[] = [
  { name: 'login', form: loginSchema, route: authSchemas.login.body, valid: { login: 'operator', password: 'secret-pass' } },
  {
    name: 'profile',
    form: accountSchema,
    route: accountSchemas.create.body,
    valid: { ...emptyAccount },
    // Which platforms the press connects by consent, and which one it connects, are the press's, not fields: the form's schema takes them as arguments.
    routeOnly: ['connectByConsent', 'connecting'],
  },
  { name: 'channel description', form: channelDescriptionSchema, route: accountSchemas.updateChannel.body, valid: { description: 'text' } },
  {
    name: 'Instagram profile',
    form: instagramProfileSchema,
    route: accountSchemas.updateInstagramProfile.body,
    valid: { profileName: 'n', profileDescription: 'd' },
  },
  { name: 'group', form: groupSchema, route: groupSchemas.create.body, valid: { name: 'g', accounts: [option] } },
  {
    name: 'posting slots',
    form: postingSlotsSchema,
    route: postingSlotsSchemas.save.body,
    valid: { from: '09:00', to: '22:00', minGapMinutes: 90, days: [1, 2, 3, 4, 5, 6, 7] },
  },
  { name: 'tag set', form: tagSetSchema, route: tagSchemas.create.body, valid: { name: 't', tags: ['a'] } },
  {
    name: 'user',
    form: userSchema,
    route: userSchemas.create.body,
    valid: { login: 'newcomer', password: 'secret-pass', password_confirmation: 'secret-pass' },
  },
  {
    name: 'own password',
    form: passwordChangeSchema,
    route: authSchemas.password.body,
    valid: { current_password: 'old-secret', password: 'secret-pass', password_confirmation: 'secret-pass' },
  },
  {
    name: 'publish',
    form: publishSchema(Date.now),
    route: uploadVideoSchemas.publish.body,
    valid: {
      title: 't',
      description: 'd',
      tags: ['a'],
      accounts: [option],
      video: [{ id: 1, url: '/u', idUpload: 'x', createdAt: '2026-01-01T00:00:00Z', account: null, date: null }],
      inYouTube: true,
      inTikTok: false,
      inInstagram: false,
      date: null,
    },
    // checkDuplicates is the machine's question to the server until the operator consents (issue 43.5), not a field of the form.
    routeOnly: ['id', 'checkDuplicates'],
  },
  {
    name: 'API token',
    form: apiTokenSchemaFor('user'),
    route: apiTokenSchemas.create.body,
    valid: { name: 'reports', scope: 'read', expiresInDays: 30 },
  },
  {
    name: 'published set edit',
    form: publishedEditSchema,
    route: uploadVideoSchemas.edit.body,
    valid: { title: 't', description: 'd', tags: ['a'] },
  },
  {
    name: 'webhook',
    form: webhookSchema,
    route: webhookSchemas.create.body,
    valid: { url: 'https://hooks.example.com/shorts', events: ['post.failed'], secret: 'a-secret-of-enough-length' },
  },
  {
    name: 'Telegram choices',
    form: telegramChoicesSchema,
    route: telegramSchemas.save.body,
    valid: { events: ['post.failed'], digest: true },
  },
];

/** The fields a superstruct object knows, for the given value (dynamic schemas depend on it). */
function formFields(form: Struct<any, any>, value: unknown): string[] {
  return [...form.entries(value, { branch: [value], path: [] })].map(([key]) => String(key));
}

describe('form schemas and route schemas', () => {
  for (const { name, form, route, valid, routeOnly = [] } of cases) {
    it(`agree on the ${name} form`, () => {
      expect(is(valid, form), 'the example is valid for the form').toBe(true);
      expect(formFields(form, valid).sort()).toEqual(
        Object.keys(route.properties)
          .filter((key) => !routeOnly.includes(key))
          .sort(),
      );

      for (const [field, schema] of Object.entries(route.properties as Record<string, TSchema>)) {
        const max = schema.maxLength as number | undefined;
        if (max === undefined || typeof valid[field] !== 'string') continue;
        // A new password goes with its confirmation.
        const paired = ['password', 'password_confirmation'].filter((key) => key in valid && field.startsWith('password'));
        const withLength = (length: number) => ({
          ...valid,
          ...Object.fromEntries([field, ...paired].map((key) => [key, 'a'.repeat(length)])),
        });
        // Fields that are not free text (a choice such as ipVersion) have no length to compare.
        if (!is(withLength(Math.min(max, 10)), form)) continue;
        // A form may leave the length to the route; a form that limits it has the route's limit.
        const formLimitsLength = !is(withLength(100_000), form);
        if (!formLimitsLength) continue;
        expect(is(withLength(max), form), `${name}.${field} takes ${max}`).toBe(true);
        expect(is(withLength(max + 1), form), `${name}.${field} refuses ${max + 1}`).toBe(false);
      }
    });
  }
});
