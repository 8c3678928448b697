import { integer, jsonb, pgTable, primaryKey, serial, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './backoffice';
import { videos } from './media';
import { platformIds } from '../../../src/lib/platforms';
import type { WaitKind } from '../../../src/lib/contract';
import type { PostWait } from '../../../src/lib/post-waits';
import type { FailureKind } from '../../../src/lib/post-failures';

/** One upload of a video to one platform; see migrations/0004_publishing.sql. */
export const videoPosts = pgTable(
  'video_posts',
  {
    id: serial('id').primaryKey(),
    videoId: integer('video_id')
      .notNull()
      .references(() => videos.id, { onDelete: 'cascade' }),
    platform: text('platform', { enum: platformIds }).notNull(),
    accountId: integer('account_id').references(() => accounts.id, { onDelete: 'set null' }),
    status: text('status', { enum: ['pending', 'done', 'error'] })
      .notNull()
      .default('pending'),
    scheduledAt: timestamp('scheduled_at', { withTimezone: true }).notNull(),
    jobToken: uuid('job_token'),
    remoteId: text('remote_id'),
    url: text('url'),
    // Migration 0042: why it failed (the last failure, while its retries run), a kind and the platform's answer.
    failure: text('failure').$type<FailureKind>(),
    failureDetail: jsonb('failure_detail'),
    progress: jsonb('progress'),
    attempts: integer('attempts').notNull().default(0),
    statsSyncedAt: timestamp('stats_synced_at', { withTimezone: true }),
    // Migration 0023: when the post's figures are next due (server/jobs/sync-stats.ts).
    statsDueAt: timestamp('stats_due_at', { withTimezone: true }),
    // The latest figures read (migration 0013); each change also adds a row to stats_points.
    views: integer('views'),
    likes: integer('likes'),
    comments: integer('comments'),
    // Migration 0016: an edit of the set's texts carried to the platform (YouTube only).
    editState: text('edit_state', { enum: ['pending', 'done', 'error'] }),
    // Migration 0046: why the last edit failed, as a kind and the platform's answer (src/lib/post-failures.ts).
    editFailure: text('edit_failure').$type<FailureKind>(),
    editFailureDetail: jsonb('edit_failure_detail'),
    // Migration 0020: until when a pending post waits; when a job claimed it. Migration 0030: why it waits.
    waitKind: text('wait_kind').$type<WaitKind>(),
    waitDetail: jsonb('wait_detail').$type<PostWait['detail']>(),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    startedAt: timestamp('started_at', { withTimezone: true }),
    // Migration 0025: when the post went out, counted against its profile's posting cap.
    publishedAt: timestamp('published_at', { withTimezone: true }),
    // Migration 0024: the platform's own choices for this post (PostOptions[platform]).
    options: jsonb('options'),
    // Migration 0051: the post's own final words; null is the video's.
    title: text('title'),
    description: text('description'),
    tags: text('tags').array(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [unique().on(table.videoId, table.platform)],
);

/** A profile's remembered platform choices; see migrations/0024_post_options.sql. */
export const postingDefaults = pgTable(
  'posting_defaults',
  {
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    platform: text('platform', { enum: platformIds }).notNull(),
    options: jsonb('options').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.accountId, table.platform] })],
);
