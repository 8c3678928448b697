import { Type } from '@sinclair/typebox';
import { ErrorBody, Text } from './common';
import { maxLength } from './limits';

const parameter = Type.Optional(Text(maxLength.oauthParameter));

/** Google adds parameters of its own (scope, authuser, prompt); those are neither read nor refused. */
export const oauthSchemas = {
  youtubeCallback: {
    querystring: Type.Object({ code: parameter, state: parameter, error: parameter }),
    response: { 302: Type.Null({ description: 'Redirect to the profile page in the SPA' }) },
  },
  /** TikTok adds `scopes` and `error_description`, Instagram `error_reason` and `error_description`: neither read nor refused. */
  linkCallback: {
    querystring: Type.Object({ code: parameter, state: parameter, error: parameter }),
    response: { 302: Type.Null({ description: 'Redirect to the profile page in the SPA' }) },
  },
  /** YouTube's consent link: binds the browser that opens it, then on to Google; a page in Ukrainian when it cannot. */
  youtubeStart: {
    querystring: Type.Object({ state: Text(maxLength.oauthParameter), sig: Text(maxLength.oauthParameter) }),
    response: {
      302: Type.Null({ description: "Redirect to Google's consent page" }),
      400: Type.String({ description: 'A page in Ukrainian: the link is not signed, or its flow was spent or has ended' }),
    },
  },
  /** Where a callback sends a browser its flow was not started in. */
  anotherBrowser: {
    response: {
      403: Type.String({ description: 'A page in Ukrainian: the connection was started in another browser, and nothing was connected' }),
    },
  },
};

const status = Type.Object({ status: Type.String() });
const queueFigures = Type.Object({
  due: Type.Integer(),
  scheduled: Type.Integer(),
  active: Type.Integer(),
  oldestDueSeconds: Type.Union([Type.Number(), Type.Null()]),
});
/** The engine's figures (server/engine/figures.ts), in processes that talk to the queue. */
const engine = Type.Object({ queues: Type.Record(Type.String(), queueFigures), liveWorkers: Type.Integer() });
export const healthSchemas = {
  live: { response: { 200: status } },
  /** `engine` only for an admin's session or admin token; a probe without one is told only ready or not. */
  ready: {
    response: {
      200: Type.Object({ status: Type.String(), engine: Type.Optional(engine) }),
      '4xx': ErrorBody,
      // `status` for probes that read only it; the rest in SPEC's error shape, as every 5xx is.
      503: Type.Composite([status, ErrorBody]),
    },
  },
};
