import { and, asc, desc, eq, gte, inArray, lt, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { listenerCounts, listeningDays, memberDays, mixDays } from '../../db/schema';
import type { CountBucket, DayFigure } from './listening-rollup';
import { yieldToListeners } from '../../lib/event-loop';

/** The analytics rollups (listener_counts, listening_days, member_days, mix_days): the only place that reads or writes them. */

export interface MemberDayFigure {
  figure: string;
  bucket: string;
  tier: string;
  platform: string;
  value: number;
}

/** Rows per insert: building one statement's parameters is work between two listeners' requests. */
const CHUNK = 250;
/** Concurrency buckets per insert: they travel as one JSON parameter, cheap to build. */
const COUNTS_CHUNK = 1_000;

async function insertChunked<T>(rows: readonly T[], insert: (chunk: T[]) => Promise<unknown>, size = CHUNK): Promise<void> {
  for (let i = 0; i < rows.length; i += size) {
    await insert(rows.slice(i, i + size));
    await yieldToListeners();
  }
}

/** Replaces a day's listening: its concurrency buckets in [from, to) and its day figures. */
export async function replaceListeningDay(
  db: Db,
  day: string,
  from: Date,
  to: Date,
  counts: readonly CountBucket[],
  days: readonly DayFigure[],
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(listenerCounts).where(and(gte(listenerCounts.at, from), lt(listenerCounts.at, to)));
    await tx.delete(listeningDays).where(eq(listeningDays.day, day));
    // Thousands of buckets a day: one JSON parameter per chunk, not six per row for the query builder to walk.
    await insertChunked(
      counts,
      (chunk) =>
        tx.execute(sql`
        insert into ${listenerCounts} (channel_id, mount, resolution_min, at, average, peak)
        select r.channel_id, r.mount, r.resolution_min, r.at, r.average, r.peak
        from json_to_recordset(${JSON.stringify(chunk.map((c) => ({ channel_id: c.channelId, mount: c.mount, resolution_min: c.resolutionMin, at: c.at, average: c.average, peak: c.peak })))}::json)
          as r(channel_id text, mount text, resolution_min integer, at timestamptz, average double precision, peak integer)`),
      COUNTS_CHUNK,
    );
    await insertChunked(days, (chunk) => tx.insert(listeningDays).values(chunk.map((d) => ({ ...d, day }))));
  });
}

/** Replaces a day's member figures of these kinds. */
export async function replaceMemberDay(db: Db, day: string, figures: readonly string[], rows: readonly MemberDayFigure[]): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(memberDays).where(and(eq(memberDays.day, day), inArray(memberDays.figure, [...figures])));
    await insertChunked(rows, (chunk) => tx.insert(memberDays).values(chunk.map((r) => ({ ...r, day }))));
  });
}

/** Whether a day has a member snapshot (counts and MRR taken at its end). */
export async function hasMemberSnapshot(db: Db, day: string): Promise<boolean> {
  const [row] = await db
    .select({ day: memberDays.day })
    .from(memberDays)
    .where(and(eq(memberDays.day, day), eq(memberDays.figure, 'snapshot_taken')))
    .limit(1);
  return row !== undefined;
}

/** Replaces a day's mix figures. */
export async function replaceMixDay(db: Db, day: string, rows: readonly { mixId: string; plays: number; downloads: number }[]): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(mixDays).where(eq(mixDays.day, day));
    await insertChunked(rows, (chunk) => tx.insert(mixDays).values(chunk.map((r) => ({ ...r, day }))));
  });
}

export type ListeningDayRow = typeof listeningDays.$inferSelect;
export type MemberDayRow = typeof memberDays.$inferSelect;

/** Day figures for days in [fromDay, toDay] (inclusive, YYYY-MM-DD). */
export function listeningDaysBetween(db: Db, fromDay: string, toDay: string, dimension: DayFigure['dimension']) {
  return db
    .select()
    .from(listeningDays)
    .where(and(gte(listeningDays.day, fromDay), lte(listeningDays.day, toDay), eq(listeningDays.dimension, dimension)))
    .orderBy(asc(listeningDays.day));
}

/** Member figures for days in [fromDay, toDay]. */
export function memberDaysBetween(db: Db, fromDay: string, toDay: string) {
  return db
    .select()
    .from(memberDays)
    .where(and(gte(memberDays.day, fromDay), lte(memberDays.day, toDay)))
    .orderBy(asc(memberDays.day));
}

/** Plays and downloads per mix over days in [fromDay, toDay], most played first. */
export async function mixTotalsBetween(db: Db, fromDay: string, toDay: string, limit: number): Promise<{ mixId: string; plays: number; downloads: number }[]> {
  const rows = await db
    .select({
      mixId: mixDays.mixId,
      plays: sql<number>`sum(${mixDays.plays})`.mapWith(Number),
      downloads: sql<number>`sum(${mixDays.downloads})`.mapWith(Number),
    })
    .from(mixDays)
    .where(and(gte(mixDays.day, fromDay), lte(mixDays.day, toDay)))
    .groupBy(mixDays.mixId)
    .orderBy(desc(sql`sum(${mixDays.plays}) + sum(${mixDays.downloads})`), asc(mixDays.mixId))
    .limit(limit);
  return rows;
}

/** Concurrency buckets of one resolution in [from, to), per channel (mounts summed). */
export function listenerSeries(db: Db, resolutionMin: 1 | 15, from: Date, to: Date) {
  return db
    .select({ channelId: listenerCounts.channelId, at: listenerCounts.at, average: sql<number>`sum(${listenerCounts.average})`.mapWith(Number) })
    .from(listenerCounts)
    .where(and(eq(listenerCounts.resolutionMin, resolutionMin), gte(listenerCounts.at, from), lt(listenerCounts.at, to)))
    .groupBy(listenerCounts.channelId, listenerCounts.at)
    .orderBy(asc(listenerCounts.at));
}

/** Drops concurrency buckets past their keeping: 1-minute ones before `minutesBefore`, 15-minute ones before `quartersBefore`. */
export async function pruneListenerCounts(db: Db, minutesBefore: Date, quartersBefore: Date): Promise<void> {
  await db.delete(listenerCounts).where(and(eq(listenerCounts.resolutionMin, 1), lt(listenerCounts.at, minutesBefore)));
  await db.delete(listenerCounts).where(and(eq(listenerCounts.resolutionMin, 15), lt(listenerCounts.at, quartersBefore)));
}
