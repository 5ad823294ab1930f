import { and, count, eq, sql } from 'drizzle-orm';
import { DAY_MS } from '../../../contracts/time';
import type { Db } from '../../db/client';
import { follows, memberProfiles, users, type MemberProfileRow } from '../../db/schema';

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
  /** Followers whose accounts are at least FOLLOWER_MIN_AGE_MS old: only they raise reputation. */
  seasonedFollowerCount: number;
}

/** A follow from an account younger than this does not raise reputation (throwaway accounts inflate nothing). */
export const FOLLOWER_MIN_AGE_MS = 7 * DAY_MS;

/** Counted from the rows, so they are always right. */
export async function followCounts(db: Db, userId: string): Promise<FollowCounts> {
  const seasonedBefore = new Date(Date.now() - FOLLOWER_MIN_AGE_MS);
  const [followers, following] = await Promise.all([
    // A read of users' creation dates only (members-repository owns the table's writes).
    db
      .select({ n: count(), seasoned: sql<number>`count(*) filter (where ${users.createdAt} <= ${seasonedBefore.toISOString()}::timestamptz)`.mapWith(Number) })
      .from(follows)
      .innerJoin(users, eq(users.id, follows.followerId))
      .where(eq(follows.followeeId, userId)),
    db.select({ n: count() }).from(follows).where(eq(follows.followerId, userId)),
  ]);
  return { followerCount: followers[0]?.n ?? 0, followingCount: following[0]?.n ?? 0, seasonedFollowerCount: followers[0]?.seasoned ?? 0 };
}

export async function isFollowing(db: Db, followerId: string, followeeId: string): Promise<boolean> {
  const rows = await db
    .select({ f: follows.followerId })
    .from(follows)
    .where(and(eq(follows.followerId, followerId), eq(follows.followeeId, followeeId)))
    .limit(1);
  return rows.length > 0;
}

export interface FollowEntry {
  memberId: string;
  username: string;
  since: Date;
}

/** Whom a member follows and who follows them, with the other member's public name (their data export). */
export async function followsOf(db: Db, userId: string): Promise<{ following: FollowEntry[]; followers: FollowEntry[] }> {
  const following = await db
    .select({ memberId: follows.followeeId, username: users.username, since: follows.createdAt })
    .from(follows)
    .innerJoin(users, eq(users.id, follows.followeeId))
    .where(eq(follows.followerId, userId));
  const followers = await db
    .select({ memberId: follows.followerId, username: users.username, since: follows.createdAt })
    .from(follows)
    .innerJoin(users, eq(users.id, follows.followerId))
    .where(eq(follows.followeeId, userId));
  return { following, followers };
}

export interface PublicProfileEntry {
  id: string;
  username: string;
  updatedAt: Date;
}

/**
 * Members whose profile any visitor may see (no profile row yet means the default, public), newest
 * change first: the sitemap lists them. A read of users' names (members-repository owns the writes).
 */
export async function publicProfiles(db: Db, limit: number): Promise<PublicProfileEntry[]> {
  return db
    .select({
      id: users.id,
      username: users.username,
      updatedAt: sql<Date>`greatest(${users.createdAt}, coalesce(${memberProfiles.updatedAt}, ${users.createdAt}))`.mapWith(memberProfiles.updatedAt),
    })
    .from(users)
    .leftJoin(memberProfiles, eq(memberProfiles.userId, users.id))
    .where(sql`coalesce(${memberProfiles.profileVisibility}, 'public') = 'public'`)
    .orderBy(sql`${users.createdAt} desc`)
    .limit(limit);
}

/** The member's name when any visitor may see their profile; undefined for a private profile or no member. */
export async function publicProfileName(db: Db, userId: string): Promise<string | undefined> {
  const rows = await db
    .select({ username: users.username, visibility: memberProfiles.profileVisibility })
    .from(users)
    .leftJoin(memberProfiles, eq(memberProfiles.userId, users.id))
    .where(eq(users.id, userId))
    .limit(1);
  const row = rows[0];
  return row && (row.visibility ?? 'public') === 'public' ? row.username : undefined;
}
