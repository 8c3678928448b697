import { Type } from '@sinclair/typebox';
import { AccountGroup, errorResponses, Id, IdParams, NoContent, PageQuery, Paged, TagSet, Text } from './common';
import { maxItems, maxLength } from './limits';
import { EffectiveSlots } from './posting-slots';

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

/** A group as its form reads it: SPEC's fields and, not SPEC's (issue 31.2), its profiles' default posting slots. */
export const AccountGroupDetail = Type.Object({ ...AccountGroup.properties, slots: EffectiveSlots });
const groupDetail = { 200: AccountGroupDetail, ...errorResponses };

const removed = { params: IdParams, response: { 204: NoContent, ...errorResponses } };

export const groupSchemas = {
  list: { querystring: PageQuery, response: { 200: Paged(AccountGroup), ...errorResponses } },
  detail: { params: IdParams, response: groupDetail },
  create: { body: groupBody, response: { 201: AccountGroupDetail, ...errorResponses } },
  update: { params: IdParams, body: groupBody, response: groupDetail },
  remove: removed,
};

export const tagSchemas = {
  list: { querystring: PageQuery, response: { 200: Paged(TagSet), ...errorResponses } },
  detail: { params: IdParams, response: { 200: TagSet, ...errorResponses } },
  create: { body: tagSetBody, response: { 201: TagSet, ...errorResponses } },
  update: { params: IdParams, body: tagSetBody, response: { 200: TagSet, ...errorResponses } },
  remove: removed,
};
