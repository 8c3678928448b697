import { validate, type Struct } from 'superstruct';
import {
  apiTokenSchemaFor,
  channelDescriptionSchema,
  groupSchema,
  ownUserSchema,
  passwordChangeSchema,
  publishedEditSchema,
  publishSchema,
  spreadSchema,
  tagSetSchema,
  telegramChoicesSchema,
  userSchema,
  webhookSchema,
  webhookTargetSchema,
} from '../../src/lib/schemas';
import { loginSchema } from '../../src/lib/login-schema';

/**
 * The form schemas a route checks its JSON body with again after the route schema (parseBody in
 * server/routes/*.ts), by operationId. The route schemas leave those fields optional so that a
 * missing one is refused in the form's own words ('Мінімум один тег'), all at once; the document
 * lists them as required, since the server refuses a body without them.
 */
const bodyRechecks: Record<string, Struct<any, any>> = {
  postAuthLogin: loginSchema,
  postAuthPassword: passwordChangeSchema,
  postAccountsGroup: groupSchema,
  patchAccountsGroupById: groupSchema,
  patchAccountsUpdateChannelById: channelDescriptionSchema,
  postTags: tagSetSchema,
  patchTagsById: tagSetSchema,
  postUsers: userSchema,
  // An admin editing another user sends login and password; editing themselves, the login alone.
  patchUsersById: ownUserSchema,
  postTokens: apiTokenSchemaFor('user'),
  postWebhooks: webhookSchema,
  patchWebhooksById: webhookTargetSchema,
  putTelegram: telegramChoicesSchema,
  patchUploadVideoByIdUpload: publishedEditSchema,
  postUploadVideoByIdUpload: publishSchema(() => 0),
  postUploadVideoByIdUploadSpread: spreadSchema(0),
};

/** The top-level fields the form schema of `operationId` refuses a body without; none when it has no form schema. */
export function recheckedRequired(operationId: string): string[] {
  const recheck = bodyRechecks[operationId];
  if (!recheck) return [];
  const [error] = validate({}, recheck);
  return [...new Set((error?.failures() ?? []).filter((failure) => failure.path.length === 1).map((failure) => String(failure.path[0])))];
}
