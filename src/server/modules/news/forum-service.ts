import { FORUM_MESSAGES, type CreateForumPost, type ForumPost } from '../../../contracts/news';
import { meetsTier } from '../../../contracts/tier-policy';
import type { Db } from '../../db/client';
import type { UserRow } from '../../db/schema';
import { forbidden } from '../../lib/errors';
import { findForumPost, insertForumPost, type ForumPostWithAuthor } from './forum-repository';

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

/** Starting a thread follows the commenting rule (tier-policy: DHR1, DHR2, VIP and admins). */
export function assertMayStartThread(user: UserRow): void {
  if (!meetsTier(user, 'dhr1')) throw forbidden(FORUM_MESSAGES.mayNotPost, 'may_not_post');
}

/** Stores a member's thread; the caller has checked the posting rules. */
export async function createThread(db: Db, user: UserRow, input: CreateForumPost, status: 'approved' | 'pending' = 'approved'): Promise<ForumPost> {
  const id = await insertForumPost(db, { userId: user.id, category: input.category, title: input.title, body: input.body, status });
  const row = await findForumPost(db, id);
  if (!row) throw new Error('thread vanished after insert');
  return toForumPost(row);
}
