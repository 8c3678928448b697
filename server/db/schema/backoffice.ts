import { boolean, integer, pgTable, serial, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users';

export const accountGroups = pgTable('account_groups', {
  id: serial('id').primaryKey(),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  /** Posting slots (migration 0038): minutes after Kyiv midnight, the least gap, ISO weekdays as bits; all NULL for the installation's. */
  postingFrom: smallint('posting_from'),
  postingTo: smallint('posting_to'),
  postingGapMinutes: smallint('posting_gap_minutes'),
  postingDays: smallint('posting_days'),
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
  isActiveFacebook: boolean('is_active_facebook').notNull().default(false),
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
  instagramAccessToken: text('instagram_access_token'),
  instagramUserId: text('instagram_user_id'),
  /** Posting slots (migration 0038): minutes after Kyiv midnight, the least gap, ISO weekdays as bits; all NULL for the group's or the installation's. */
  postingFrom: smallint('posting_from'),
  postingTo: smallint('posting_to'),
  postingGapMinutes: smallint('posting_gap_minutes'),
  postingDays: smallint('posting_days'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const tagSets = pgTable('tag_sets', {
  id: serial('id').primaryKey(),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  tags: text('tags').array().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
