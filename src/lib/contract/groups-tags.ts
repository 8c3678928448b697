import { Type } from '@sinclair/typebox';
import { AccountGroup, errorResponses, Id, IdParams, NoContent, PageQuery, Paged, TagSet, Text } from './common';
import { maxItems, maxLength } from './limits';

/** A chosen profile as the multi-select sends it (its title holds the profile's comment); only the id counts. */
export const ChosenAccount = Type.Object(
  { id: Id, title: Type.Optional(Text(maxLength.comments + 100)), value: Type.Optional(Type.Integer()) },
  { additionalProperties: false },
);

const groupBody = Type.Object(
  { name: Type.Optional(Text(maxLength.name)), accounts: Type.Optional(Type.Array(ChosenAccount, { maxItems: maxItems.accounts })) },
  { additionalProperties: false },
);

export const TagList = Type.Array(Text(maxLength.tag), { maxItems: maxItems.tags });

const tagSetBody = Type.Object(
  { name: Type.Optional(Text(maxLength.name)), tags: Type.Optional(TagList) },
  { additionalProperties: false },
);

const removed = { params: IdParams, response: { 204: NoContent, ...errorResponses } };

export const groupSchemas = {
  list: { querystring: PageQuery, response: { 200: Paged(AccountGroup), ...errorResponses } },
  detail: { params: IdParams, response: { 200: AccountGroup, ...errorResponses } },
  create: { body: groupBody, response: { 201: AccountGroup, ...errorResponses } },
  update: { params: IdParams, body: groupBody, response: { 200: AccountGroup, ...errorResponses } },
  remove: removed,
};

export const tagSchemas = {
  list: { querystring: PageQuery, response: { 200: Paged(TagSet), ...errorResponses } },
  detail: { params: IdParams, response: { 200: TagSet, ...errorResponses } },
  create: { body: tagSetBody, response: { 201: TagSet, ...errorResponses } },
  update: { params: IdParams, body: tagSetBody, response: { 200: TagSet, ...errorResponses } },
  remove: removed,
};
