import { COMMENT_MAX_LENGTH, COMMENT_MESSAGES, type PostCommentBody, type ReportReason } from '../../../contracts/community';
import { effectiveTier } from '../../../contracts/tier-policy';
import type { Db } from '../../db/client';
import type { CommentRow, UserRow } from '../../db/schema';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors';
import { accountsSharingIdentity } from '../platforms/platforms-repository';
import { findMembersByIds } from '../members/members-repository';
import { assertMayPost, hasReportStanding, SAME_PERSON_WINDOW_MS, spamVerdict } from './comment-rules';
import { addReport, countApprovedComments, countedReportOfSamePerson, findComment, insertComment } from './comments-repository';

/** The comment text of either payload shape, trimmed and checked with the spec's limits. */
export function commentText(body: Pick<PostCommentBody, 'content' | 'comment'>): string {
  const text = (body.content ?? body.comment ?? '').trim();
  if (!text) throw badRequest(COMMENT_MESSAGES.empty, 'comment_empty');
  if (text.length > COMMENT_MAX_LENGTH) throw badRequest(COMMENT_MESSAGES.tooLong, 'comment_too_long');
  return text;
}

/**
 * Posts a comment as the signed-in member (author, name and tier from the session; identity fields in
 * the body are ignored). Published at once unless the spam filter holds it; admins are never held.
 */
export async function postComment(db: Db, user: UserRow | null, body: PostCommentBody): Promise<{ row: CommentRow; message: string }> {
  const author = await assertMayPost(db, user);
  const content = commentText(body);
  // The article's title and source are the client's words too, shown in the home ticker: the same
  // text and link rules as the comment apply to them.
  const words = [content, body.articleTitle, body.articleSource].filter(Boolean).join('\n');
  const status = author.isAdmin ? 'approved' : await spamVerdict(db, author.id, content, words);
  const row = await insertComment(db, {
    discussionId: body.articleId,
    articleTitle: body.articleTitle || null,
    articleSource: body.articleSource || null,
    userId: author.id,
    authorName: author.username,
    authorTier: effectiveTier(author),
    content,
    status,
  });
  return { row, message: status === 'approved' ? COMMENT_MESSAGES.posted : COMMENT_MESSAGES.submitted };
}

/**
 * One member's report of someone else's published comment, once per member. Returns the comment
 * (its discussion's cached list may have to drop it).
 */
export async function reportComment(db: Db, reporter: UserRow, commentId: string, reason: ReportReason, reporterNetwork: string): Promise<CommentRow> {
  const comment = await findComment(db, commentId);
  // Pending and rejected comments are not shown to others, so there is nothing of theirs to report.
  if (!comment || (comment.status !== 'approved' && comment.userId !== reporter.id)) throw notFound(COMMENT_MESSAGES.notFound);
  if (comment.userId === reporter.id) throw forbidden(COMMENT_MESSAGES.reportOwn, 'own_comment');
  const counted = await reportCounts(db, reporter, comment, reporterNetwork);
  if (!(await addReport(db, { commentId: comment.id, reporterId: reporter.id, reason, reporterNetwork, counted }))) {
    throw conflict(COMMENT_MESSAGES.alreadyReported, 'already_reported');
  }
  return comment;
}

/**
 * Whether a report brings the comment nearer the automatic hide: the reporter has
 * standing, the author is not staff (their comments go to the queue, never hidden by members), and
 * no account of the same person (same network, or sharing a payer identity) counted one within a day.
 */
async function reportCounts(db: Db, reporter: UserRow, comment: CommentRow, reporterNetwork: string): Promise<boolean> {
  if (!hasReportStanding(reporter, await countApprovedComments(db, reporter.id))) return false;
  if (!comment.userId) return false;
  const [author] = await findMembersByIds(db, [comment.userId]);
  if (!author || author.isAdmin) return false;
  const since = new Date(Date.now() - SAME_PERSON_WINDOW_MS);
  return !(await countedReportOfSamePerson(db, comment.id, reporterNetwork, await accountsSharingIdentity(db, reporter), since));
}
