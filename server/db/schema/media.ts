import { boolean, integer, jsonb, pgTable, real, serial, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { RenderFailure } from '../../../src/lib/render-failures';
import type { PlatformTexts } from '../../../src/lib/post-texts';
import { users } from './users';

export const photos = pgTable('photos', {
  id: serial('id').primaryKey(),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  fileKey: text('file_key').notNull(),
  contentType: text('content_type').notNull(),
  width: integer('width').notNull(),
  height: integer('height').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const creationRequests = pgTable('creation_requests', {
  id: serial('id').primaryKey(),
  idUpload: uuid('id_upload').notNull().unique(),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  status: text('status', { enum: ['loading', 'success', 'error', 'published'] })
    .notNull()
    .default('loading'),
  countVideo: integer('count_video').notNull(),
  sourceKey: text('source_key').notNull(),
  sourceName: text('source_name'),
  /** The chosen background images (migration 0015); null: every image of the owner, as before the choice existed. */
  backgroundIds: integer('background_ids').array(),
  /** Why its render failed, as a kind (migration 0035); worded by src/lib/render-failures.ts. */
  renderFailure: text('render_failure').$type<RenderFailure>(),
  renderFailureDetail: text('render_failure_detail'),
  title: text('title'),
  description: text('description').notNull().default(''),
  tags: text('tags').array().notNull().default([]),
  /** Migration 0054: the publish's `texts`, each platform's own words as typed; null: the set's for all. */
  platformTexts: jsonb('platform_texts').$type<PlatformTexts>(),
  inYouTube: boolean('in_youtube').notNull().default(false),
  inTikTok: boolean('in_tiktok').notNull().default(false),
  inInstagram: boolean('in_instagram').notNull().default(false),
  inFacebook: boolean('in_facebook').notNull().default(false),
  /** Set by the last publish; the YouTube list shows the requests that have it. */
  publishedAt: timestamp('published_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const videos = pgTable('videos', {
  id: serial('id').primaryKey(),
  requestId: integer('request_id')
    .notNull()
    .references(() => creationRequests.id, { onDelete: 'cascade' }),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  accountId: integer('account_id'),
  position: integer('position').notNull(),
  // What happened to the video's publication, 'success' only once published: see services/publishing/video-status.ts.
  status: text('status', { enum: ['loading', 'publication', 'success', 'error', 'noactive', 'cancelled'] })
    .notNull()
    .default('loading'),
  fileKey: text('file_key'),
  posterKey: text('poster_key'),
  // Migration 0055: the poster's small copy (server/media/render.ts); null for videos rendered before it.
  thumbnailKey: text('thumbnail_key'),
  date: timestamp('date', { withTimezone: true }),
  // Migration 0035: why its render failed. Its posts' failures are theirs (migration 0042).
  renderFailure: text('render_failure').$type<RenderFailure>(),
  renderFailureDetail: text('render_failure_detail'),
  urlYouTube: text('url_youtube'),
  urlInstagram: text('url_instagram'),
  urlTiktok: text('url_tiktok'),
  urlFacebook: text('url_facebook'),
  // Migration 0020: ticked platforms its profile lacks.
  publishNote: text('publish_note'),
  // Migration 0024: the rendered video's length, for the platforms' limits.
  durationSeconds: real('duration_seconds'),
  // Migration 0047: its frames a second, for the platforms' limits.
  frameRate: real('frame_rate'),
  // Migration 0050: the rendered frame.
  width: integer('width'),
  height: integer('height'),
  views: integer('views').notNull().default(0),
  likes: integer('likes').notNull().default(0),
  comments: integer('comments').notNull().default(0),
  viewsInstagram: integer('views_instagram').notNull().default(0),
  likesInstagram: integer('likes_instagram').notNull().default(0),
  commentsInstagram: integer('comments_instagram').notNull().default(0),
  // Migration 0029: TikTok's own figures, no longer in YouTube's columns.
  viewsTikTok: integer('views_tiktok').notNull().default(0),
  likesTikTok: integer('likes_tiktok').notNull().default(0),
  commentsTikTok: integer('comments_tiktok').notNull().default(0),
  // Migration 0047: Facebook Reels' figures.
  viewsFacebook: integer('views_facebook').notNull().default(0),
  likesFacebook: integer('likes_facebook').notNull().default(0),
  commentsFacebook: integer('comments_facebook').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
