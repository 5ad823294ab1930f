import { and, count, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import { DELETED_MEMBER_NAME } from '../../../contracts/community';
import type { ForumFilter, ForumPostCategory } from '../../../contracts/news';
import type { Db } from '../../db/client';
import { forumPosts, users } from '../../db/schema';

/** SQL for forum_posts (this module owns it); the author's name and tier are read from users. */

export interface ForumPostWithAuthor {
  id: string;
  /** Null once the author deleted their account. */
  userId: string | null;
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
  userId: forumPosts.userId,
  category: forumPosts.category,
  title: forumPosts.title,
  body: forumPosts.body,
  status: forumPosts.status,
  createdAt: forumPosts.createdAt,
  // A thread whose author deleted their account keeps its place, under DELETED_MEMBER_NAME.
  authorName: sql<string>`coalesce(${users.username}, ${DELETED_MEMBER_NAME})`,
  authorTier: sql<string>`coalesce(${users.subscriptionTier}, 'free')`,
  authorIsAdmin: sql<boolean>`coalesce(${users.isAdmin}, false)`,
};

/** `%`, `_` and `\` match themselves in a member's search. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export interface ForumListFilter {
  category: ForumFilter;
  search?: string | undefined;
  /** Only pending threads: this member's own (awaiting a moderator), or every member's ('all', for admins). */
  pendingOf?: string;
}

export async function listForumPosts(db: Db, f: ForumListFilter, limit: number): Promise<ForumPostWithAuthor[]> {
  // The 'news' filter shows the news panel only: no member threads.
  if (f.category === 'news') return [];
  const where: (SQL | undefined)[] = [
    !f.pendingOf
      ? eq(forumPosts.status, 'approved')
      : f.pendingOf === 'all'
        ? eq(forumPosts.status, 'pending')
        : and(eq(forumPosts.status, 'pending'), eq(forumPosts.userId, f.pendingOf)),
  ];
  if (f.category !== 'all') where.push(eq(forumPosts.category, f.category));
  if (f.search) where.push(or(ilike(forumPosts.title, likePattern(f.search)), ilike(forumPosts.body, likePattern(f.search))));
  return db
    .select(columns)
    .from(forumPosts)
    .leftJoin(users, eq(users.id, forumPosts.userId))
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
  const [row] = await db.select(columns).from(forumPosts).leftJoin(users, eq(users.id, forumPosts.userId)).where(eq(forumPosts.id, id));
  return row;
}

/** A moderator's approval of a held thread; the thread (with its author) or undefined when unknown. */
export async function approveForumPost(db: Db, id: string): Promise<ForumPostWithAuthor | undefined> {
  const [row] = await db.update(forumPosts).set({ status: 'approved' }).where(eq(forumPosts.id, id)).returning({ id: forumPosts.id });
  return row ? findForumPost(db, row.id) : undefined;
}

/** Removes a thread; returns what it was, for the moderation log. */
export async function deleteForumPost(db: Db, id: string): Promise<{ userId: string | null; title: string } | undefined> {
  const [row] = await db.delete(forumPosts).where(eq(forumPosts.id, id)).returning({ userId: forumPosts.userId, title: forumPosts.title });
  return row;
}

/** Threads the spam rule held, waiting for a moderator. */
export async function countHeldThreads(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(forumPosts).where(eq(forumPosts.status, 'pending'));
  return row?.n ?? 0;
}

/** A member's own threads, newest first (their data export). */
export async function forumPostsByAuthor(db: Db, userId: string): Promise<ForumPostWithAuthor[]> {
  return db
    .select(columns)
    .from(forumPosts)
    .leftJoin(users, eq(users.id, forumPosts.userId))
    .where(eq(forumPosts.userId, userId))
    .orderBy(desc(forumPosts.createdAt));
}

/** Approved threads, newest first: ids, titles and dates for the sitemap. */
export async function approvedThreads(db: Db, limit: number): Promise<{ id: string; title: string; createdAt: Date }[]> {
  return db
    .select({ id: forumPosts.id, title: forumPosts.title, createdAt: forumPosts.createdAt })
    .from(forumPosts)
    .where(eq(forumPosts.status, 'approved'))
    .orderBy(desc(forumPosts.createdAt))
    .limit(limit);
}
