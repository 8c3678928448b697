import { Type } from '@sinclair/typebox';
import { Text } from './common';
import { maxLength } from './limits';

const parameter = Type.Optional(Text(maxLength.oauthParameter));

/** Google adds parameters of its own (scope, authuser, prompt); those are neither read nor refused. */
export const oauthSchemas = {
  youtubeCallback: {
    querystring: Type.Object({ code: parameter, state: parameter, error: parameter }),
    response: { 302: Type.Null({ description: 'Redirect to the profile page in the SPA' }) },
  },
};

const status = Type.Object({ status: Type.String() });
export const healthSchemas = {
  live: { response: { 200: status } },
  ready: { response: { 200: status, 503: status } },
};
