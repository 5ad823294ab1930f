import { and, asc, count, desc, eq, gt, gte, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import { COMMENT_HIDE_REPORTS, type CommentStatus, type ModerationAction, type ReportReason } from '../../../contracts/community';
import type { Tier } from '../../../contracts/tiers';
import type { Db } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { commentBans, commentReports, comments, moderationLog, type CommentBanRow, type CommentRow, type ModerationLogRow } from '../../db/schema';

/**
 * The one owner of `comments`, `comment_reports`, `comment_bans` and `moderation_log`
 * (docs/conventions.md). SQL only; the rules are in comment-rules.ts and comments-service.ts.
 */

/** Most comments one discussion answers with (newest first). */
export const DISCUSSION_LIST_MAX = 200;

/** Approved and not hidden by reports: what every visitor sees. */
const publiclyVisible = and(eq(comments.status, 'approved'), lt(comments.hidingReports, COMMENT_HIDE_REPORTS));

export interface NewComment {
  discussionId: string;
  articleTitle: string | null;
  articleSource: string | null;
  userId: string;
  authorName: string;
  authorTier: Tier;
  content: string;
  status: CommentStatus;
}

export async function insertComment(db: Db, values: NewComment): Promise<CommentRow> {
  const [row] = await db.insert(comments).values(values).returning();
  if (!row) throw new Error('comment insert returned nothing');
  return row;
}

export async function findComment(db: Db, id: string): Promise<CommentRow | null> {
  const rows = await db.select().from(comments).where(eq(comments.id, id)).limit(1);
  return rows[0] ?? null;
}

/** The public list of a discussion, newest first. */
export async function visibleComments(db: Db, discussionId: string): Promise<CommentRow[]> {
  return db
    .select()
    .from(comments)
    .where(and(eq(comments.discussionId, discussionId), publiclyVisible))
    .orderBy(desc(comments.createdAt))
    .limit(DISCUSSION_LIST_MAX);
}

/** A member's own comments in a discussion that the public does not see yet (pending). */
export async function ownPendingComments(db: Db, discussionId: string, userId: string): Promise<CommentRow[]> {
  return db
    .select()
    .from(comments)
    .where(and(eq(comments.discussionId, discussionId), eq(comments.userId, userId), eq(comments.status, 'pending')))
    .orderBy(desc(comments.createdAt))
    .limit(DISCUSSION_LIST_MAX);
}

/** The newest publicly visible comments across all discussions. */
export async function recentComments(db: Db, limit: number): Promise<CommentRow[]> {
  return db.select().from(comments).where(publiclyVisible).orderBy(desc(comments.createdAt)).limit(limit);
}

/** Publicly visible comments per discussion written since `since`, for the given discussions (the news ranking's comment activity). */
export async function commentCountsSince(db: Db, discussionIds: readonly string[], since: Date): Promise<Map<string, number>> {
  if (discussionIds.length === 0) return new Map();
  const rows = await db
    .select({ id: comments.discussionId, n: count() })
    .from(comments)
    .where(and(publiclyVisible, inArray(comments.discussionId, [...discussionIds]), gte(comments.createdAt, since)))
    .groupBy(comments.discussionId);
  return new Map(rows.map((r) => [r.id, r.n]));
}

/** What the spam rule needs: the author's latest comment and how many they wrote since `since`. */
export async function authorActivity(db: Db, userId: string, since: Date): Promise<{ last: string | null; recent: number }> {
  const [lastRows, recentRows] = await Promise.all([
    db.select({ content: comments.content }).from(comments).where(eq(comments.userId, userId)).orderBy(desc(comments.createdAt)).limit(1),
    db
      .select({ n: count() })
      .from(comments)
      .where(and(eq(comments.userId, userId), gte(comments.createdAt, since))),
  ]);
  return { last: lastRows[0]?.content ?? null, recent: recentRows[0]?.n ?? 0 };
}

export async function countApprovedComments(db: Db, userId: string): Promise<number> {
  const rows = await db
    .select({ n: count() })
    .from(comments)
    .where(and(eq(comments.userId, userId), eq(comments.status, 'approved')));
  return rows[0]?.n ?? 0;
}

// ---------------------------------------------------------------- reports

/**
 * Records one member's report and counts it on the comment, in one transaction. False when this
 * member had already reported the comment (the primary key says so, even under a race).
 */
/**
 * Stores one member's report of a comment (false when they already reported it). Every report puts the
 * comment in the moderation queue; only a `counted` one brings it nearer the automatic hide.
 */
export async function addReport(
  db: Db,
  report: { commentId: string; reporterId: string; reason: ReportReason; reporterNetwork: string; counted: boolean },
): Promise<boolean> {
  try {
    return await db.transaction(async (tx) => {
      await tx.insert(commentReports).values(report);
      await tx
        .update(comments)
        .set({ openReports: sql`${comments.openReports} + 1`, ...(report.counted ? { hidingReports: sql`${comments.hidingReports} + 1` } : {}) })
        .where(eq(comments.id, report.commentId));
      return true;
    });
  } catch (err) {
    if (isUniqueViolation(err)) return false;
    throw err;
  }
}

/**
 * Whether a report of this comment since `since` already counted for the same person: from the same
 * network, or by one of `sameIdentity` (accounts sharing a payer identity with the reporter).
 */
export async function countedReportOfSamePerson(
  db: Db,
  commentId: string,
  reporterNetwork: string,
  sameIdentity: readonly string[],
  since: Date,
): Promise<boolean> {
  const samePerson = or(
    eq(commentReports.reporterNetwork, reporterNetwork),
    ...(sameIdentity.length ? [inArray(commentReports.reporterId, [...sameIdentity])] : []),
  );
  const counted = and(eq(commentReports.commentId, commentId), eq(commentReports.counted, true), gte(commentReports.createdAt, since));
  const rows = await db.select({ reporterId: commentReports.reporterId }).from(commentReports).where(and(counted, samePerson)).limit(1);
  return rows.length > 0;
}

export interface ReportEntry {
  commentId: string;
  reporterId: string;
  reason: ReportReason;
  createdAt: Date;
}

/** Reports made since each comment's last moderator decision, oldest first. */
export async function openReportsFor(db: Db, list: readonly CommentRow[]): Promise<ReportEntry[]> {
  if (list.length === 0) return [];
  const rows = await db
    .select()
    .from(commentReports)
    .where(
      inArray(
        commentReports.commentId,
        list.map((c) => c.id),
      ),
    )
    .orderBy(asc(commentReports.createdAt));
  const decided = new Map(list.map((c) => [c.id, c.moderatedAt?.getTime() ?? -Infinity]));
  return rows.filter((r) => r.createdAt.getTime() > (decided.get(r.commentId) ?? -Infinity));
}

// ---------------------------------------------------------------- moderation

const MODERATION_LIST_MAX = 200;

/** Comments with reports no moderator has answered yet (rejected ones are already off the list), most reported first. */
export async function reportedComments(db: Db): Promise<CommentRow[]> {
  return db
    .select()
    .from(comments)
    .where(and(gt(comments.openReports, 0), sql`${comments.status} <> 'rejected'`))
    .orderBy(desc(comments.openReports), desc(comments.createdAt))
    .limit(MODERATION_LIST_MAX);
}

export async function pendingComments(db: Db): Promise<CommentRow[]> {
  return db.select().from(comments).where(eq(comments.status, 'pending')).orderBy(asc(comments.createdAt)).limit(MODERATION_LIST_MAX);
}

/** Held: waiting for a moderator (pending), or reported and not yet answered. */
const held = or(eq(comments.status, 'pending'), and(gt(comments.openReports, 0), sql`${comments.status} <> 'rejected'`));

/** Every held comment, oldest first (the combined moderation queue). */
export async function heldComments(db: Db, limit: number): Promise<CommentRow[]> {
  return db.select().from(comments).where(held).orderBy(asc(comments.createdAt)).limit(limit);
}

/** How many comments are held, and how many of them because of reports. */
export async function heldCommentCounts(db: Db): Promise<{ held: number; reported: number }> {
  const [row] = await db
    .select({ held: count(), reported: sql<number>`count(*) filter (where ${comments.openReports} > 0)`.mapWith(Number) })
    .from(comments)
    .where(held);
  return { held: row?.held ?? 0, reported: row?.reported ?? 0 };
}

/** A moderator's decision: the new status, who and when; the open reports are answered by it. */
export async function decideComment(
  db: Db,
  id: string,
  status: Extract<CommentStatus, 'approved' | 'rejected'>,
  moderator: { id: string; username: string },
): Promise<CommentRow | null> {
  const [row] = await db
    .update(comments)
    .set({ status, openReports: 0, hidingReports: 0, moderatedAt: new Date(), moderatorId: moderator.id, moderatorUsername: moderator.username })
    .where(eq(comments.id, id))
    .returning();
  return row ?? null;
}

export async function deleteComment(db: Db, id: string): Promise<CommentRow | null> {
  const [row] = await db.delete(comments).where(eq(comments.id, id)).returning();
  return row ?? null;
}

// ---------------------------------------------------------------- bans

export async function findBan(db: Db, userId: string): Promise<CommentBanRow | null> {
  const rows = await db.select().from(commentBans).where(eq(commentBans.userId, userId)).limit(1);
  return rows[0] ?? null;
}

/** Which of these members have a ban in force at `now`. */
export async function bannedAmong(db: Db, userIds: readonly string[], now: Date = new Date()): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .select({ userId: commentBans.userId, expiresAt: commentBans.expiresAt })
    .from(commentBans)
    .where(inArray(commentBans.userId, [...new Set(userIds)]));
  return new Set(rows.filter((r) => r.expiresAt === null || r.expiresAt > now).map((r) => r.userId));
}

const BAN_LIST_MAX = 1000;

/** Bans in force at `now` (permanent or not yet ended), newest first. */
export async function bansInForce(db: Db, now: Date = new Date()): Promise<CommentBanRow[]> {
  return db
    .select()
    .from(commentBans)
    .where(or(isNull(commentBans.expiresAt), gt(commentBans.expiresAt, now)))
    .orderBy(desc(commentBans.createdAt))
    .limit(BAN_LIST_MAX);
}

export async function anyBanInForce(db: Db, now: Date = new Date()): Promise<boolean> {
  const rows = await db
    .select({ userId: commentBans.userId })
    .from(commentBans)
    .where(or(isNull(commentBans.expiresAt), gt(commentBans.expiresAt, now)))
    .limit(1);
  return rows.length > 0;
}

/** Removes a member's ban; the removed row, or null when there was none. */
export async function deleteBan(db: Db, userId: string): Promise<CommentBanRow | null> {
  const [row] = await db.delete(commentBans).where(eq(commentBans.userId, userId)).returning();
  return row ?? null;
}

/** One ban per member: a new ban replaces the old one (reason and end). */
export async function upsertBan(db: Db, ban: { userId: string; reason: string; expiresAt: Date | null; bannedBy: string }): Promise<void> {
  await db
    .insert(commentBans)
    .values(ban)
    .onConflictDoUpdate({
      target: commentBans.userId,
      set: { reason: ban.reason, expiresAt: ban.expiresAt, bannedBy: ban.bannedBy, createdAt: new Date() },
    });
}

// ---------------------------------------------------------------- log

export interface NewLogEntry {
  moderatorId: string;
  moderatorUsername: string;
  action: ModerationAction;
  commentId: string | null;
  targetUserId: string | null;
  targetUsername: string | null;
  detail: string | null;
}

export async function logModeration(db: Db, entry: NewLogEntry): Promise<void> {
  await db.insert(moderationLog).values(entry);
}

export async function moderationHistory(db: Db, limit: number): Promise<ModerationLogRow[]> {
  return db.select().from(moderationLog).orderBy(desc(moderationLog.createdAt)).limit(limit);
}

/** A member's own comments, newest first (their data export). */
export async function commentsByAuthor(db: Db, userId: string): Promise<CommentRow[]> {
  return db.select().from(comments).where(eq(comments.userId, userId)).orderBy(desc(comments.createdAt));
}

/**
 * Before a member's account goes: their comments keep their place under `name`, and the moderation
 * log forgets the name it wrote for them. Answers the discussions whose lists changed.
 */
export async function anonymiseAuthor(db: Db, userId: string, name: string): Promise<string[]> {
  const rows = await db
    .update(comments)
    .set({ authorName: name, authorTier: 'free' })
    .where(eq(comments.userId, userId))
    .returning({ discussionId: comments.discussionId });
  await db.update(moderationLog).set({ targetUsername: name }).where(eq(moderationLog.targetUserId, userId));
  return [...new Set(rows.map((r) => r.discussionId))];
}
