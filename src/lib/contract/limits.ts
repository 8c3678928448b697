/**
 * Longest accepted texts, in characters. The same numbers are CHECK constraints on the columns
 * (migration 0007), so the route refuses with a message what the database would refuse with an
 * error; tests/server/route-contracts.test.ts compares the two.
 */
export const maxLength = {
  login: 50,
  password: 50,
  proxy: 1000,
  comments: 1000,
  platformLogin: 320,
  clientId: 500,
  secret: 4096,
  instagramUserId: 100,
  channelDescription: 5000,
  profileName: 200,
  profileDescription: 2000,
  name: 200,
  tag: 100,
  title: 1000,
  description: 5000,
  date: 40,
  refreshToken: 200,
  oauthParameter: 2048,
  tokenName: 100,
  webhookUrl: 2000,
  webhookSecret: 200,
} as const;

/** Most items an array of a body may hold. */
export const maxItems = {
  tags: 500,
  accounts: 1000,
  videos: 1000,
} as const;
