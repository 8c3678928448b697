import { Type } from '@sinclair/typebox';
import { errorResponses, NoContent, SessionUser, Text } from './common';
import { maxLength } from './limits';

const refreshBody = Type.Object({ refreshToken: Text(maxLength.refreshToken) }, { additionalProperties: false });
const tokens = { accessToken: Type.String(), refreshToken: Type.String() };
export const RefreshResponse = Type.Object(tokens);
export const LoginResponse = Type.Object({ user: SessionUser, ...tokens });

export const authSchemas = {
  login: {
    body: Type.Object(
      { login: Type.Optional(Text(maxLength.login)), password: Type.Optional(Text(maxLength.password)) },
      { additionalProperties: false },
    ),
    response: { 200: LoginResponse, ...errorResponses },
  },
  refresh: { body: refreshBody, response: { 200: RefreshResponse, ...errorResponses } },
  me: { response: { 200: Type.Object({ user: SessionUser }), ...errorResponses } },
  logout: { body: refreshBody, response: { 204: NoContent, ...errorResponses } },
  password: {
    body: Type.Object(
      {
        current_password: Type.Optional(Text(maxLength.password)),
        password: Type.Optional(Text(maxLength.password)),
        password_confirmation: Type.Optional(Text(maxLength.password)),
      },
      { additionalProperties: false },
    ),
    response: { 204: NoContent, ...errorResponses },
  },
};
