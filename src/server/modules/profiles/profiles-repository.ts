import { and, count, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { follows, memberProfiles, type MemberProfileRow } from '../../db/schema';

/** The one owner of `member_profiles` and `follows` (docs/conventions.md). */

export async function findProfile(db: Db, userId: string): Promise<MemberProfileRow | null> {
  const rows = await db.select().from(memberProfiles).where(eq(memberProfiles.userId, userId)).limit(1);
  return rows[0] ?? null;
}

export type ProfileFields = Partial<Omit<MemberProfileRow, 'userId' | 'updatedAt'>>;

/** Creates the member's profile row on first change, else updates the given fields. */
export async function saveProfile(db: Db, userId: string, fields: ProfileFields): Promise<MemberProfileRow> {
  const now = new Date();
  const [row] = await db
    .insert(memberProfiles)
    .values({ userId, ...fields, updatedAt: now })
    .onConflictDoUpdate({ target: memberProfiles.userId, set: { ...fields, updatedAt: now } })
    .returning();
  if (!row) throw new Error('profile upsert returned nothing');
  return row;
}

/** Idempotent: following twice is one follow. */
export async function addFollow(db: Db, followerId: string, followeeId: string): Promise<void> {
  await db.insert(follows).values({ followerId, followeeId }).onConflictDoNothing();
}

export async function removeFollow(db: Db, followerId: string, followeeId: string): Promise<void> {
  await db.delete(follows).where(and(eq(follows.followerId, followerId), eq(follows.followeeId, followeeId)));
}

export interface FollowCounts {
  followerCount: number;
  followingCount: number;
}

/** Counted from the rows, so they are always right. */
export async function followCounts(db: Db, userId: string): Promise<FollowCounts> {
  const [followers, following] = await Promise.all([
    db.select({ n: count() }).from(follows).where(eq(follows.followeeId, userId)),
    db.select({ n: count() }).from(follows).where(eq(follows.followerId, userId)),
  ]);
  return { followerCount: followers[0]?.n ?? 0, followingCount: following[0]?.n ?? 0 };
}

export async function isFollowing(db: Db, followerId: string, followeeId: string): Promise<boolean> {
  const rows = await db
    .select({ f: follows.followerId })
    .from(follows)
    .where(and(eq(follows.followerId, followerId), eq(follows.followeeId, followeeId)))
    .limit(1);
  return rows.length > 0;
}
