import type { CreateForumPost, ForumPost } from '../../../contracts/news';
import type { Db } from '../../db/client';
import type { UserRow } from '../../db/schema';
import { assertMayPost, spamVerdict } from '../comments/comment-rules';
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
