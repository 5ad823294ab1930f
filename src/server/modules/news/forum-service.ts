import type { CreateForumPost, ForumPost } from '../../../contracts/news';
import type { Db } from '../../db/client';
import type { UserRow } from '../../db/schema';
import { notFound } from '../../lib/errors';
import { assertMayPost, spamVerdict } from '../comments/comment-rules';
import { logModeration } from '../comments/comments-repository';
import { findMemberById } from '../members/members-repository';
import { approveForumPost, deleteForumPost, findForumPost, insertForumPost, type ForumPostWithAuthor } from './forum-repository';

export function toForumPost(row: ForumPostWithAuthor): ForumPost {
  return {
    id: row.id,
    category: row.category,
    title: row.title,
    body: row.body,
    authorName: row.authorName,
    authorTier: row.authorIsAdmin ? 'admin' : row.authorTier,
    createdAt: row.createdAt.toISOString(),
    status: row.status,
  };
}

/**
 * Starts a member's thread under the comments module's rules (docs/decisions/0016): signed in, not
 * banned, DHR1/DHR2/VIP or admin; the spam filter may hold it for a moderator (admins never held).
 */
export async function createThread(db: Db, user: UserRow | null, input: CreateForumPost): Promise<ForumPost> {
  const author = await assertMayPost(db, user);
  const status = author.isAdmin ? 'approved' : await spamVerdict(db, author.id, `${input.title}\n${input.body}`);
  const id = await insertForumPost(db, { userId: author.id, category: input.category, title: input.title, body: input.body, status });
  const row = await findForumPost(db, id);
  if (!row) throw new Error('thread vanished after insert');
  return toForumPost(row);
}

const THREAD_NOT_FOUND = 'Thread not found';

/** A moderator lets a held thread out (or confirms a listed one); logged in the moderation log. */
export async function approveThread(db: Db, moderator: UserRow, id: string): Promise<ForumPost> {
  return db.transaction(async (tx) => {
    const row = await approveForumPost(tx, id);
    if (!row) throw notFound(THREAD_NOT_FOUND);
    await logModeration(tx, {
      ...moderatorFields(moderator),
      action: 'approve',
      commentId: null,
      targetUserId: row.userId,
      targetUsername: row.authorName,
      detail: `Thread: ${row.title}`,
    });
    return toForumPost(row);
  });
}

/** A moderator removes a thread (held or listed); its replies stay in the comments' own moderation. */
export async function removeThread(db: Db, moderator: UserRow, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await deleteForumPost(tx, id);
    if (!row) throw notFound(THREAD_NOT_FOUND);
    const member = row.userId ? await findMemberById(tx, row.userId) : null;
    await logModeration(tx, {
      ...moderatorFields(moderator),
      action: 'reject',
      commentId: null,
      targetUserId: row.userId,
      targetUsername: member?.username ?? null,
      detail: `Thread removed: ${row.title}`,
    });
  });
}

function moderatorFields(moderator: UserRow) {
  return { moderatorId: moderator.id, moderatorUsername: moderator.username };
}
