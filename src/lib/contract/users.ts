import { Type } from '@sinclair/typebox';
import { errorResponses, Id, IdParams, NoContent, PageQuery, Paged, Role, Text, VideoSummary } from './common';
import { AccountSummary } from './accounts';
import { maxLength } from './limits';

export const ManagedUser = Type.Object({
  id: Id,
  login: Type.String(),
  role: Role,
  videosCount: Type.Integer(),
  accountsCount: Type.Integer(),
});

export const UserDetail = Type.Object({ user: ManagedUser, accounts: Paged(AccountSummary), video: Paged(VideoSummary) });

const userBody = Type.Object(
  {
    login: Type.Optional(Text(maxLength.login)),
    password: Type.Optional(Text(maxLength.password)),
    password_confirmation: Type.Optional(Text(maxLength.password)),
  },
  { additionalProperties: false },
);

export const userSchemas = {
  list: { querystring: PageQuery, response: { 200: Paged(ManagedUser), ...errorResponses } },
  detail: {
    params: IdParams,
    response: { 200: UserDetail, ...errorResponses },
  },
  accounts: { params: IdParams, querystring: PageQuery, response: { 200: Paged(AccountSummary), ...errorResponses } },
  videos: { params: IdParams, querystring: PageQuery, response: { 200: Paged(VideoSummary), ...errorResponses } },
  create: { body: userBody, response: { 201: ManagedUser, ...errorResponses } },
  update: { params: IdParams, body: userBody, response: { 200: ManagedUser, ...errorResponses } },
  remove: { params: IdParams, response: { 204: NoContent, ...errorResponses } },
};
