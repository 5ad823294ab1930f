import { COMMENT_MESSAGES, MODERATION_MESSAGES, type BanCommentsBody, type CommentBan, type ModeratedComment } from '../../../contracts/community';
import type { Db } from '../../db/client';
import type { CommentRow, UserRow } from '../../db/schema';
import { badRequest, notFound } from '../../lib/errors';
import { findMemberById, findMembersByIds } from '../members/members-repository';
import { clearBannedIdentities, recordBannedIdentities } from '../platforms/links-repository';
import { platformIdentitiesOf } from '../platforms/platforms-repository';
import {
  bannedAmong,
  bansInForce,
  decideComment,
  deleteBan,
  deleteComment,
  findBan,
  logModeration,
  openReportsFor,
  pendingComments,
  reportedComments,
  upsertBan,
} from './comments-repository';
import { toModeratedComment } from './comment-views';

/**
 * Moderators' work (spec "Comment moderation"): the two queues, decisions, permanent deletion and
 * comment bans. The moderator is always the signed-in admin; every action is logged with who and when.
 */

async function withDetails(db: Db, rows: CommentRow[]): Promise<ModeratedComment[]> {
  const reports = await openReportsFor(db, rows);
  const authorIds = rows.flatMap((r) => (r.userId ? [r.userId] : []));
  const members = new Map((await findMembersByIds(db, [...authorIds, ...reports.map((r) => r.reporterId)])).map((m) => [m.id, m]));
  const banned = await bannedAmong(db, authorIds);
  return rows.map((row) =>
    toModeratedComment(row, {
      email: (row.userId && members.get(row.userId)?.email) || '',
      reports: reports.filter((r) => r.commentId === row.id).map((r) => ({ ...r, reporterName: members.get(r.reporterId)?.username ?? 'deleted member' })),
      authorBanned: row.userId !== null && banned.has(row.userId),
    }),
  );
}

export async function reportedQueue(db: Db): Promise<ModeratedComment[]> {
  return withDetails(db, await reportedComments(db));
}

export async function pendingQueue(db: Db): Promise<ModeratedComment[]> {
  return withDetails(db, await pendingComments(db));
}

/** Approve or reject; answers the open reports. Returns the comment as it now is. */
export async function decide(db: Db, moderator: UserRow, id: string, decision: 'approve' | 'reject'): Promise<CommentRow> {
  return db.transaction(async (tx) => {
    const row = await decideComment(tx, id, decision === 'approve' ? 'approved' : 'rejected', moderator);
    if (!row) throw notFound(COMMENT_MESSAGES.notFound);
    await logModeration(tx, {
      moderatorId: moderator.id,
      moderatorUsername: moderator.username,
      action: decision,
      commentId: row.id,
      targetUserId: row.userId,
      targetUsername: row.authorName,
      detail: row.content.slice(0, 120),
    });
    return row;
  });
}

export async function deletePermanently(db: Db, moderator: UserRow, id: string): Promise<CommentRow> {
  return db.transaction(async (tx) => {
    const row = await deleteComment(tx, id);
    if (!row) throw notFound(COMMENT_MESSAGES.notFound);
    await logModeration(tx, {
      moderatorId: moderator.id,
      moderatorUsername: moderator.username,
      action: 'delete',
      commentId: row.id,
      targetUserId: row.userId,
      targetUsername: row.authorName,
      detail: row.content.slice(0, 120),
    });
    return row;
  });
}

/** Bans a member from commenting: a reason is required; no end means permanent; a new ban replaces the old. */
export async function banFromComments(db: Db, moderator: UserRow, targetId: string, body: BanCommentsBody, now: Date = new Date()): Promise<UserRow> {
  if (!body.reason) throw badRequest(MODERATION_MESSAGES.banReasonRequired, 'reason_required');
  const expiresAt = body.expiresAt ? new Date(body.expiresAt) : null;
  if (expiresAt && expiresAt <= now) throw badRequest(MODERATION_MESSAGES.banInPast, 'ban_in_past');
  if (targetId === moderator.id) throw badRequest(MODERATION_MESSAGES.banSelf, 'ban_self');
  const target = await findMemberById(db, targetId);
  if (!target) throw notFound(MODERATION_MESSAGES.memberNotFound);
  await db.transaction(async (tx) => {
    await upsertBan(tx, { userId: target.id, reason: body.reason, expiresAt, bannedBy: moderator.id });
    // The ban follows the payer: any account that claims or links one of these identities later is banned too.
    await recordBannedIdentities(tx, target.id, await platformIdentitiesOf(tx, target, true), { reason: body.reason, expiresAt });
    await logModeration(tx, {
      moderatorId: moderator.id,
      moderatorUsername: moderator.username,
      action: 'ban',
      commentId: null,
      targetUserId: target.id,
      targetUsername: target.username,
      detail: `${body.reason} (${expiresAt ? `until ${expiresAt.toISOString()}` : 'permanent'})`,
    });
  });
  return target;
}

/** The bans in force, with each member's email and name and the banning admin's name. */
export async function listBans(db: Db, now: Date = new Date()): Promise<CommentBan[]> {
  const bans = await bansInForce(db, now);
  const members = new Map(
    (
      await findMembersByIds(
        db,
        bans.flatMap((b) => (b.bannedBy ? [b.userId, b.bannedBy] : [b.userId])),
      )
    ).map((m) => [m.id, m]),
  );
  return bans.map((b) => ({
    userId: b.userId,
    email: members.get(b.userId)?.email ?? '',
    username: members.get(b.userId)?.username ?? 'deleted member',
    reason: b.reason,
    until: b.expiresAt?.toISOString() ?? null,
    bannedBy: (b.bannedBy && members.get(b.bannedBy)?.username) || null,
    createdAt: b.createdAt.toISOString(),
  }));
}

/** Lifts a member's ban in force (404 when there is none); logged. The member may comment and post again at once. */
export async function liftBan(db: Db, moderator: UserRow, targetId: string, now: Date = new Date()): Promise<UserRow> {
  const target = await findMemberById(db, targetId);
  if (!target) throw notFound(MODERATION_MESSAGES.memberNotFound);
  const ban = await findBan(db, target.id);
  if (!ban || (ban.expiresAt !== null && ban.expiresAt <= now)) throw notFound(MODERATION_MESSAGES.notBanned, 'not_banned');
  await db.transaction(async (tx) => {
    await deleteBan(tx, target.id);
    await clearBannedIdentities(tx, target.id);
    await logModeration(tx, {
      moderatorId: moderator.id,
      moderatorUsername: moderator.username,
      action: 'unban',
      commentId: null,
      targetUserId: target.id,
      targetUsername: target.username,
      detail: `Ban lifted (was: ${ban.reason})`,
    });
  });
  return target;
}
