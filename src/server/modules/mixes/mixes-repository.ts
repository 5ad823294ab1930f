import { and, asc, count, desc, eq, gte, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { xactLockOn } from '../../db/advisory-locks';
import { mixDownloads, vipMixes } from '../../db/schema';

/** The VIP mix library's tables (vip_mixes, mix_downloads): the only place that reads or writes them. */

export type MixRow = typeof vipMixes.$inferSelect;
export type NewMixRow = typeof vipMixes.$inferInsert;

/** Every mix, newest first (the demo's rows share a date: then by title). */
export function listMixes(db: Db): Promise<MixRow[]> {
  return db.select().from(vipMixes).orderBy(desc(vipMixes.createdAt), asc(vipMixes.title));
}

export async function findMix(db: Db, id: string): Promise<MixRow | undefined> {
  const [row] = await db.select().from(vipMixes).where(eq(vipMixes.id, id));
  return row;
}

export async function insertMix(db: Db, values: NewMixRow): Promise<MixRow> {
  const [row] = await db.insert(vipMixes).values(values).returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

/** Changes the given fields; undefined when there is no such mix. */
export async function updateMix(db: Db, id: string, patch: Partial<Omit<NewMixRow, 'id' | 'createdAt'>>): Promise<MixRow | undefined> {
  if (Object.keys(patch).length === 0) return findMix(db, id);
  const [row] = await db.update(vipMixes).set(patch).where(eq(vipMixes.id, id)).returning();
  return row;
}

/** Deletes the mix (its download records go with it); returns the deleted row. */
export async function deleteMix(db: Db, id: string): Promise<MixRow | undefined> {
  const [row] = await db.delete(vipMixes).where(eq(vipMixes.id, id)).returning();
  return row;
}

/** Mixes in the library, and how many have a storage URL set. */
export async function mixStorageCounts(db: Db): Promise<{ total: number; withUrl: number }> {
  const rows = await db
    .select({ total: count(), withUrl: sql<number>`count(*) filter (where ${vipMixes.s3Url} is not null and ${vipMixes.s3Url} <> '')`.mapWith(Number) })
    .from(vipMixes);
  return { total: rows[0]?.total ?? 0, withUrl: rows[0]?.withUrl ?? 0 };
}

/** Downloads since `since`, of one member when `userId` is given, else of everyone. */
export async function countDownloadsSince(db: Db, since: Date, userId?: string): Promise<number> {
  const conditions: SQL[] = [gte(mixDownloads.createdAt, since)];
  if (userId) conditions.push(eq(mixDownloads.userId, userId));
  const rows = await db
    .select({ n: count() })
    .from(mixDownloads)
    .where(and(...conditions));
  return rows[0]?.n ?? 0;
}

/** Whether the member has a download of this mix recorded since `since`. */
export async function hasDownloadSince(db: Db, userId: string, mixId: string, since: Date): Promise<boolean> {
  const rows = await db
    .select({ id: mixDownloads.id })
    .from(mixDownloads)
    .where(and(eq(mixDownloads.userId, userId), eq(mixDownloads.mixId, mixId), gte(mixDownloads.createdAt, since)))
    .limit(1);
  return rows.length > 0;
}

/**
 * Records one download if the member has fewer than `limit` since `since`, atomically: the member's
 * downloads are counted and written under a lock on that member, so two parallel requests with one
 * download left record exactly one. Returns the downloads left after it, or null when none were left.
 */
export function recordDownloadWithinLimit(db: Db, input: { userId: string; mixId: string; since: Date; limit: number; at: Date }): Promise<number | null> {
  return db.transaction(async (tx) => {
    await tx.execute(xactLockOn('mixDownloads', input.userId));
    const used = await countDownloadsSince(tx, input.since, input.userId);
    if (used >= input.limit) return null;
    await tx.insert(mixDownloads).values({ userId: input.userId, mixId: input.mixId, createdAt: input.at });
    await tx
      .update(vipMixes)
      .set({ totalDownloads: sql`${vipMixes.totalDownloads} + 1` })
      .where(eq(vipMixes.id, input.mixId));
    return input.limit - used - 1;
  });
}

/** A member's mix downloads, newest first, with the mix's title (their data export). */
export async function downloadsOf(db: Db, userId: string): Promise<{ mixId: string; title: string | null; at: Date }[]> {
  return db
    .select({ mixId: mixDownloads.mixId, title: vipMixes.title, at: mixDownloads.createdAt })
    .from(mixDownloads)
    .leftJoin(vipMixes, eq(vipMixes.id, mixDownloads.mixId))
    .where(eq(mixDownloads.userId, userId))
    .orderBy(desc(mixDownloads.createdAt));
}
