import { boolean, integer, jsonb, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';
import type { ConnectedAs } from '../../../src/lib/contract';
import { users } from './users';

export const accountGroups = pgTable('account_groups', {
  id: serial('id').primaryKey(),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * proxy_password, youtube_client_secret, youtube_password, youtube_refresh_token, instagram_password,
 * instagram_access_token and tiktok_auth_str hold ciphertext (server/auth/secrets.ts), never plaintext.
 */
export const accounts = pgTable('accounts', {
  id: serial('id').primaryKey(),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  groupId: integer('group_id').references(() => accountGroups.id, { onDelete: 'set null' }),
  /** The proxy without its password, which is sealed in proxy_password. */
  proxy: text('proxy').notNull(),
  proxyPassword: text('proxy_password'),
  ipVersion: text('ip_version', { enum: ['ipv4', 'ipv6'] })
    .notNull()
    .default('ipv4'),
  comments: text('comments').notNull().default(''),
  isActiveYouTube: boolean('is_active_youtube').notNull().default(false),
  isActiveTikTok: boolean('is_active_tiktok').notNull().default(false),
  isActiveInstagram: boolean('is_active_instagram').notNull().default(false),
  youtubeClientId: text('youtube_client_id'),
  youtubeClientSecret: text('youtube_client_secret'),
  youtubeLogin: text('youtube_login'),
  youtubePassword: text('youtube_password'),
  youtubeRefreshToken: text('youtube_refresh_token'),
  inYouTube: boolean('in_youtube').notNull().default(false),
  instagramLogin: text('instagram_login'),
  instagramPassword: text('instagram_password'),
  tiktokAuthStr: text('tiktok_auth_str'),
  description: text('description'),
  titleChannel: text('title_channel'),
  urlChannel: text('url_channel'),
  urlInstagram: text('url_instagram'),
  profileNameInstagram: text('profile_name_instagram'),
  profileDescriptionInstagram: text('profile_description_instagram'),
  connectedAs: jsonb('connected_as').$type<ConnectedAs>().notNull().default({}),
  instagramAccessToken: text('instagram_access_token'),
  instagramUserId: text('instagram_user_id'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A profile's link to one platform by one method (migrations 0022, 0028): access_token and
 * refresh_token hold ciphertext sealed as `account_connections:<account_id>:<platform>_access_token`
 * (and _refresh_token), with the method after the platform for typed credentials (connectionSecrets).
 */
export const accountConnections = pgTable(
  'account_connections',
  {
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    platform: text('platform', { enum: ['youtube', 'tiktok', 'instagram'] }).notNull(),
    method: text('method', { enum: ['oauth', 'pasted', 'login'] }).notNull(),
    accessToken: text('access_token'),
    refreshToken: text('refresh_token'),
    accessExpiresAt: timestamp('access_expires_at', { withTimezone: true }),
    refreshExpiresAt: timestamp('refresh_expires_at', { withTimezone: true }),
    remoteId: text('remote_id'),
    remoteName: text('remote_name'),
    state: text('state', { enum: ['connected', 'revoked'] })
      .notNull()
      .default('connected'),
    error: text('error'),
    // Migration 0031: the platform's standing failure on the profile, on the connection in use.
    failureCode: text('failure_code', { enum: ['refused', 'revoked'] }),
    failure: text('failure'),
    grantedAt: timestamp('granted_at', { withTimezone: true }).notNull().defaultNow(),
    endingNotifiedAt: timestamp('ending_notified_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.accountId, table.platform, table.method] })],
);

export const tagSets = pgTable('tag_sets', {
  id: serial('id').primaryKey(),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  tags: text('tags').array().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
