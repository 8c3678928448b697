import { Type } from '@sinclair/typebox';
import { errorResponses, Id, IdParams, Literals, NoContent, Nullable, Text } from './common';
import { apiTokenScopes } from './lists';
import { maxLength } from './limits';

/**
 * Issue 32.4: a user's personal API tokens. The schema pins the types; the values' rules (a name,
 * a scope not above the user's role, 1 to 365 days), each with its message, are the form's
 * (src/lib/schemas.ts apiTokenSchemaFor), which the route checks again.
 */
export const ApiTokenScope = Literals(apiTokenScopes);

/** A token as its list shows it: never its secret, which only the answer that made it carried. */
export const ApiToken = Type.Object({
  id: Id,
  name: Type.String(),
  scope: ApiTokenScope,
  createdAt: Type.String({ format: 'date-time' }),
  expiresAt: Type.String({ format: 'date-time' }),
  lastUsedAt: Nullable(Type.String({ format: 'date-time' })),
  /** By the server's clock, which decides whether the token still works, not the browser's. */
  expired: Type.Boolean(),
});

/** The answer to its creation, the one time the token itself is shown. */
export const CreatedApiToken = Type.Object({
  id: Id,
  name: Type.String(),
  scope: ApiTokenScope,
  expiresAt: Type.String({ format: 'date-time' }),
  token: Type.String({ description: 'The secret, shown this once: send it as `Authorization: Bearer <token>`' }),
});

const tokenBody = Type.Object(
  {
    name: Type.Optional(Text(maxLength.tokenName)),
    scope: Type.Optional(ApiTokenScope),
    expiresInDays: Type.Optional(Type.Integer()),
  },
  { additionalProperties: false },
);

export const apiTokenSchemas = {
  list: { response: { 200: Type.Object({ data: Type.Array(ApiToken) }), ...errorResponses } },
  create: { body: tokenBody, response: { 201: CreatedApiToken, ...errorResponses } },
  revoke: { params: IdParams, response: { 204: NoContent, ...errorResponses } },
};
