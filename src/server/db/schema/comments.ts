import { boolean, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { CommentStatus, ModerationAction, ReportReason } from '../../../contracts/community';
import type { Tier } from '../../../contracts/tiers';
import { users } from './members';

/**
 * Comments on a discussion: the home page ('homepage'), a news item or a forum thread, named by
 * `discussionId` (the spec's articleId).
 * @owner src/server/modules/comments/comments-repository.ts
 */
export const comments = pgTable(
  'comments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    discussionId: text('discussion_id').notNull(),
    articleTitle: text('article_title'),
    articleSource: text('article_source'),
    /** Null once the author deleted their account: the comment stays, its author shown as DELETED_MEMBER_NAME. */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The author's name and tier when posting (from the session, never the body). */
    authorName: text('author_name').notNull(),
    authorTier: text('author_tier').$type<Tier>().notNull(),
    content: text('content').notNull(),
    status: text('status').$type<CommentStatus>().notNull(),
    /** Reports since the last moderator decision; at COMMENT_HIDE_REPORTS the comment leaves the public list. */
    openReports: integer('open_reports').notNull().default(0),
    /** Of those, the reports that count towards the automatic hide (reporters with standing, one per person). */
    hidingReports: integer('hiding_reports').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    moderatedAt: timestamp('moderated_at', { withTimezone: true }),
    moderatorId: uuid('moderator_id').references(() => users.id, { onDelete: 'set null' }),
    moderatorUsername: text('moderator_username'),
  },
  (t) => [
    index('comments_discussion_idx').on(t.discussionId, t.createdAt.desc()),
    index('comments_user_idx').on(t.userId, t.createdAt.desc()),
    index('comments_status_idx').on(t.status, t.createdAt.desc()),
  ],
);

/**
 * One report per member per comment (the primary key makes it so).
 * @owner src/server/modules/comments/comments-repository.ts
 */
export const commentReports = pgTable(
  'comment_reports',
  {
    commentId: uuid('comment_id')
      .notNull()
      .references(() => comments.id, { onDelete: 'cascade' }),
    reporterId: uuid('reporter_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    reason: text('reason').$type<ReportReason>().notNull(),
    /** A hash of the reporter's network (IPv4 address, IPv6 /64): several accounts of one person count once. */
    reporterNetwork: text('reporter_network'),
    /** Whether the report counted towards the automatic hide. */
    counted: boolean('counted').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.commentId, t.reporterId] })],
);

/**
 * A member banned from commenting: a reason, and an end (null = permanent). One row per member.
 * @owner src/server/modules/comments/comments-repository.ts
 */
export const commentBans = pgTable('comment_bans', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  reason: text('reason').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }),
  bannedBy: uuid('banned_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Every moderator action: who did what to which comment or member, and when.
 * @owner src/server/modules/comments/comments-repository.ts
 */
export const moderationLog = pgTable(
  'moderation_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    moderatorId: uuid('moderator_id').references(() => users.id, { onDelete: 'set null' }),
    moderatorUsername: text('moderator_username').notNull(),
    action: text('action').$type<ModerationAction>().notNull(),
    /** No foreign key: the log outlives a permanently deleted comment. */
    commentId: uuid('comment_id'),
    targetUserId: uuid('target_user_id').references(() => users.id, { onDelete: 'set null' }),
    targetUsername: text('target_username'),
    detail: text('detail'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('moderation_log_created_idx').on(t.createdAt.desc())],
);

export type CommentRow = typeof comments.$inferSelect;
export type CommentBanRow = typeof commentBans.$inferSelect;
export type ModerationLogRow = typeof moderationLog.$inferSelect;
