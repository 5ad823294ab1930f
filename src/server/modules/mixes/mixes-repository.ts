import { and, count, eq, gte, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { mixDownloads, vipMixes } from '../../db/schema';

/** The VIP mix library's tables (vip_mixes, mix_downloads); the mix pages and downloads will grow here. */

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
  const rows = await db.select({ n: count() }).from(mixDownloads).where(and(...conditions));
  return rows[0]?.n ?? 0;
}
