import { and, desc, eq, ilike, or, type SQL } from 'drizzle-orm';
import type { ForumFilter, ForumPostCategory } from '../../../contracts/news';
import type { Db } from '../../db/client';
import { forumPosts, users } from '../../db/schema';

/** SQL for forum_posts (this module owns it); the author's name and tier are read from users. */

export interface ForumPostWithAuthor {
  id: string;
  category: ForumPostCategory;
  title: string;
  body: string;
  status: 'approved' | 'pending';
  createdAt: Date;
  authorName: string;
  authorTier: string;
  authorIsAdmin: boolean;
}

const columns = {
  id: forumPosts.id,
  category: forumPosts.category,
  title: forumPosts.title,
  body: forumPosts.body,
  status: forumPosts.status,
  createdAt: forumPosts.createdAt,
  authorName: users.username,
  authorTier: users.subscriptionTier,
  authorIsAdmin: users.isAdmin,
};

/** `%`, `_` and `\` match themselves in a member's search. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export interface ForumListFilter {
  category: ForumFilter;
  search?: string | undefined;
  /** Only this member's pending threads (their own, awaiting a moderator). */
  pendingOf?: string;
}

export async function listForumPosts(db: Db, f: ForumListFilter, limit: number): Promise<ForumPostWithAuthor[]> {
  // The 'news' filter shows the news panel only: no member threads.
  if (f.category === 'news') return [];
  const where: (SQL | undefined)[] = [f.pendingOf ? and(eq(forumPosts.status, 'pending'), eq(forumPosts.userId, f.pendingOf)) : eq(forumPosts.status, 'approved')];
  if (f.category !== 'all') where.push(eq(forumPosts.category, f.category));
  if (f.search) where.push(or(ilike(forumPosts.title, likePattern(f.search)), ilike(forumPosts.body, likePattern(f.search))));
  return db
    .select(columns)
    .from(forumPosts)
    .innerJoin(users, eq(users.id, forumPosts.userId))
    .where(and(...where))
    .orderBy(desc(forumPosts.createdAt), desc(forumPosts.id))
    .limit(limit);
}

export async function insertForumPost(
  db: Db,
  p: { userId: string; category: ForumPostCategory; title: string; body: string; status: 'approved' | 'pending' },
): Promise<string> {
  const [row] = await db.insert(forumPosts).values(p).returning({ id: forumPosts.id });
  if (!row) throw new Error('insert failed');
  return row.id;
}

export async function findForumPost(db: Db, id: string): Promise<ForumPostWithAuthor | undefined> {
  const [row] = await db.select(columns).from(forumPosts).innerJoin(users, eq(users.id, forumPosts.userId)).where(eq(forumPosts.id, id));
  return row;
}
