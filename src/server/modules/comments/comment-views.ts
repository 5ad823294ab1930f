import type { Comment, ModeratedComment, ModerationLogEntry, RecentComment } from '../../../contracts/community';
import type { CommentRow, ModerationLogRow } from '../../db/schema';
import type { ReportEntry } from './comments-repository';

/** Row → the public shape: never the author's email. */
export function toComment(row: CommentRow): Comment {
  const createdAt = row.createdAt.toISOString();
  return {
    id: row.id,
    articleId: row.discussionId,
    articleTitle: row.articleTitle,
    articleSource: row.articleSource,
    userId: row.userId,
    username: row.authorName,
    userName: row.authorName,
    userTier: row.authorTier,
    content: row.content,
    status: row.status,
    createdAt,
    timestamp: createdAt,
    moderatedAt: row.moderatedAt?.toISOString() ?? null,
    moderatorUsername: row.moderatorUsername,
  };
}

export function toRecentComment(row: CommentRow): RecentComment {
  return {
    id: row.id,
    articleId: row.discussionId,
    userName: row.authorName,
    articleTitle: row.articleTitle,
    userTier: row.authorTier,
    createdAt: row.createdAt.toISOString(),
    comment: row.content,
  };
}

/** Row → what moderators see: the author's email, the open reports (newest reason first), and whether the author is banned. */
export function toModeratedComment(
  row: CommentRow,
  extra: { email: string; reports: (ReportEntry & { reporterName: string })[]; authorBanned: boolean },
): ModeratedComment {
  const latest = extra.reports.at(-1);
  return {
    ...toComment(row),
    userEmail: extra.email,
    isReported: extra.reports.length > 0,
    reportCount: extra.reports.length,
    reportReason: latest?.reason ?? null,
    reportedAt: latest?.createdAt.toISOString() ?? null,
    reports: extra.reports.map((r) => ({ reason: r.reason, reportedAt: r.createdAt.toISOString(), reporterName: r.reporterName })),
    authorBanned: extra.authorBanned,
  };
}

export function toLogEntry(row: ModerationLogRow): ModerationLogEntry {
  return {
    id: row.id,
    moderatorUsername: row.moderatorUsername,
    action: row.action,
    commentId: row.commentId,
    targetUsername: row.targetUsername,
    detail: row.detail,
    createdAt: row.createdAt.toISOString(),
  };
}
