import { and, asc, count, desc, eq, gte, inArray, isNotNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { executeRows } from '../../db/rows';
import { xactLockOn } from '../../db/advisory-locks';
import { mixDownloads, mixPlayHours, mixPlays, mixStreamVolume, vipMixes } from '../../db/schema';
import { HOUR_MS } from '../../../contracts/time';

/** The VIP mix library's tables (vip_mixes, mix_downloads, mix_plays, mix_play_hours, mix_stream_volume): the only place that reads or writes them. */

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

// ---------------------------------------------------------------- listening copies

/**
 * Takes the next mix whose listening copy is due: queued and past its backoff, or running under a
 * lease that ran out (its instance stopped). One statement with SKIP LOCKED, so two instances never
 * take the same mix. The lease is renewed while the work goes on (renewRendition).
 */
export async function claimRendition(db: Db, leaseMs: number, now: Date = new Date()): Promise<MixRow | undefined> {
  const leaseUntil = new Date(now.getTime() + leaseMs);
  const due = db
    .select({ id: vipMixes.id })
    .from(vipMixes)
    .where(
      and(
        isNotNull(vipMixes.s3Url),
        sql`${vipMixes.s3Url} like 'mixes/%'`,
        or(
          and(eq(vipMixes.renditionState, 'queued'), sql`${vipMixes.renditionNotBefore} <= ${now.toISOString()}::timestamptz`),
          and(eq(vipMixes.renditionState, 'running'), lt(vipMixes.renditionLeaseUntil, now)),
        ),
      ),
    )
    .orderBy(asc(vipMixes.createdAt))
    .limit(1)
    .for('update', { skipLocked: true });
  const [row] = await db
    .update(vipMixes)
    .set({ renditionState: 'running', renditionPercent: 0, renditionError: null, renditionLeaseUntil: leaseUntil })
    .where(sql`${vipMixes.id} = (${due})`)
    .returning();
  return row;
}

/** Progress of a running rendition, and a longer lease; false when the mix is no longer ours to render. */
export async function renewRendition(db: Db, id: string, percent: number, leaseMs: number, now: Date = new Date()): Promise<boolean> {
  const rows = await db
    .update(vipMixes)
    .set({ renditionPercent: percent, renditionLeaseUntil: new Date(now.getTime() + leaseMs) })
    .where(and(eq(vipMixes.id, id), eq(vipMixes.renditionState, 'running')))
    .returning({ id: vipMixes.id });
  return rows.length > 0;
}

/** The listening copy is stored: the mix streams it from now on. */
export async function finishRendition(db: Db, id: string, key: string, size: number): Promise<MixRow | undefined> {
  const [row] = await db
    .update(vipMixes)
    .set({ renditionState: 'ready', renditionPercent: 100, renditionError: null, renditionKey: key, renditionSize: size, renditionLeaseUntil: null })
    .where(and(eq(vipMixes.id, id), eq(vipMixes.renditionState, 'running')))
    .returning();
  return row;
}

/** A failed attempt: queued again after `retryAt`, or failed for good (retryAt null) with the reason. */
export async function failRendition(db: Db, id: string, error: string, retryAt: Date | null): Promise<void> {
  await db
    .update(vipMixes)
    .set(
      retryAt
        ? { renditionState: 'queued', renditionError: error, renditionAttempts: sql`${vipMixes.renditionAttempts} + 1`, renditionNotBefore: retryAt }
        : { renditionState: 'failed', renditionError: error, renditionAttempts: sql`${vipMixes.renditionAttempts} + 1`, renditionLeaseUntil: null },
    )
    .where(and(eq(vipMixes.id, id), eq(vipMixes.renditionState, 'running')));
}

/** Gives a running rendition back to the queue at once (its instance is stopping), without counting an attempt. */
export async function releaseRendition(db: Db, id: string, now: Date = new Date()): Promise<void> {
  await db
    .update(vipMixes)
    .set({ renditionState: 'queued', renditionPercent: 0, renditionNotBefore: now, renditionLeaseUntil: null })
    .where(and(eq(vipMixes.id, id), eq(vipMixes.renditionState, 'running')));
}

/** Queues the mix's listening copy again from scratch (a new file, or an admin's retry). */
export async function requeueRendition(db: Db, id: string, now: Date = new Date()): Promise<MixRow | undefined> {
  const [row] = await db
    .update(vipMixes)
    .set({ renditionState: 'queued', renditionPercent: 0, renditionError: null, renditionAttempts: 0, renditionNotBefore: now, renditionLeaseUntil: null })
    .where(eq(vipMixes.id, id))
    .returning();
  return row;
}

// ---------------------------------------------------------------- plays and streamed bytes

/**
 * Counts a play of the mix by the member unless one was counted in the last `windowMs`: the mix's
 * total and its hour's count (analytics) go up together. One statement, so two links asked for at
 * once count once. True when this one counted.
 */
export async function countPlay(db: Db, userId: string, mixId: string, windowMs: number, now: Date = new Date()): Promise<boolean> {
  const before = new Date(now.getTime() - windowMs).toISOString();
  const hour = new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS).toISOString();
  const counted = await executeRows(
    db,
    sql`
    with counted as (
      insert into ${mixPlays} (user_id, mix_id, counted_at) values (${userId}, ${mixId}, ${now.toISOString()}::timestamptz)
      on conflict (user_id, mix_id) do update set counted_at = excluded.counted_at
      where ${mixPlays.countedAt} <= ${before}::timestamptz
      returning mix_id
    ), hourly as (
      insert into ${mixPlayHours} as h (mix_id, hour, plays) select mix_id, ${hour}::timestamptz, 1 from counted
      on conflict (mix_id, hour) do update set plays = h.plays + 1
    )
    update ${vipMixes} set plays = plays + 1 where id in (select mix_id from counted) returning id`,
  );
  return counted.length > 0;
}

/** Bytes of mixes the member has streamed since `day` began (0 when none). */
export async function streamedBytes(db: Db, userId: string, day: Date): Promise<number> {
  const [row] = await db
    .select({ bytes: mixStreamVolume.bytes })
    .from(mixStreamVolume)
    .where(and(eq(mixStreamVolume.userId, userId), eq(mixStreamVolume.day, day)));
  return row?.bytes ?? 0;
}

/** A member's day as the admission sees it: bytes counted (sent plus reserved) and answers in flight. */
export interface StreamDay {
  bytes: number;
  inFlight: number;
}

/** The database's clock in epoch ms: every instance stamps and ages answers by the same clock. */
const nowMs = sql`(extract(epoch from clock_timestamp()) * 1000)::bigint`;

/** Entries of `answers` admitted after `staleBefore` (epoch ms), as a jsonb object. */
function liveAnswers(answers: unknown, staleMs: number) {
  return sql`(select coalesce(jsonb_object_agg(e.key, e.value), '{}'::jsonb) from jsonb_each(${answers}) e where (e.value)::bigint > ${nowMs} - ${staleMs})`;
}

/**
 * Admits a media answer of `bytes` in one atomic statement (the member/day row is locked by the
 * upsert, so parallel admissions on any instance queue on it and each sees the previous one's
 * result): adds `bytes` to the day and records `answerId` in flight, only when the day's bytes are
 * under `limit` and fewer than `maxInFlight` of the member's answers younger than `staleMs` are in
 * flight. Entries older than that are dropped on the way. True when admitted.
 */
export async function admitStreamAnswer(
  db: Db,
  args: { userId: string; day: Date; answerId: string; bytes: number; limit: number; maxInFlight: number; staleMs: number },
): Promise<boolean> {
  const { userId, day, answerId, bytes, limit, maxInFlight, staleMs } = args;
  const v = mixStreamVolume;
  const admitted = await executeRows(
    db,
    sql`
    insert into ${v} as v (user_id, day, bytes, answers)
    values (${userId}, ${day.toISOString()}, ${bytes}, jsonb_build_object(${answerId}::text, ${nowMs}))
    on conflict (user_id, day) do update
      set bytes = v.bytes + excluded.bytes,
          answers = ${liveAnswers(sql`v.answers`, staleMs)} || excluded.answers
      where v.bytes < ${limit}
        and (select count(*) from jsonb_each(v.answers) e where (e.value)::bigint > ${nowMs} - ${staleMs}) < ${maxInFlight}
    returning v.user_id`,
  );
  return admitted.length > 0;
}

/**
 * Ends an admitted answer in one atomic statement: takes it out of the answers in flight and gives
 * back the `unsentBytes` of its reserved length.
 */
export async function endStreamAnswer(db: Db, args: { userId: string; day: Date; answerId: string; unsentBytes: number }): Promise<void> {
  const { userId, day, answerId, unsentBytes } = args;
  await db
    .update(mixStreamVolume)
    .set({
      bytes: sql`greatest(0, ${mixStreamVolume.bytes} - ${Math.max(0, unsentBytes)})`,
      answers: sql`${mixStreamVolume.answers} - ${answerId}::text`,
    })
    .where(and(eq(mixStreamVolume.userId, userId), eq(mixStreamVolume.day, day)));
}

/** The member's day: bytes counted and answers in flight younger than `staleMs` (why an admission was refused). */
export async function streamDay(db: Db, userId: string, day: Date, staleMs: number): Promise<StreamDay> {
  const v = mixStreamVolume;
  const [row] = await executeRows<{ bytes: string | number; in_flight: string | number }>(
    db,
    sql`
    select v.bytes, (select count(*) from jsonb_each(v.answers) e where (e.value)::bigint > ${nowMs} - ${staleMs}) as in_flight
    from ${v} as v where v.user_id = ${userId} and v.day = ${day.toISOString()}`,
  );
  return { bytes: Number(row?.bytes ?? 0), inFlight: Number(row?.in_flight ?? 0) };
}

/** Drops members' daily streaming volumes of days before `before` (only today's counts for the limit). */
export async function pruneStreamVolume(db: Db, before: Date): Promise<void> {
  await db.delete(mixStreamVolume).where(lt(mixStreamVolume.day, before));
}

/**
 * Per mix, the plays counted and the downloads made in [from, to): the analytics rollup of a day.
 * `from` and `to` fall on whole hours (a Dublin day does), the resolution plays are kept at.
 */
export async function mixActivityBetween(db: Db, from: Date, to: Date): Promise<{ mixId: string; plays: number; downloads: number }[]> {
  const f = from.toISOString();
  const t = to.toISOString();
  const plays = await db
    .select({ mixId: mixPlayHours.mixId, n: sql<number>`sum(${mixPlayHours.plays})`.mapWith(Number) })
    .from(mixPlayHours)
    .where(and(sql`${mixPlayHours.hour} >= ${f}::timestamptz`, sql`${mixPlayHours.hour} < ${t}::timestamptz`))
    .groupBy(mixPlayHours.mixId);
  const downloads = await db
    .select({ mixId: mixDownloads.mixId, n: count() })
    .from(mixDownloads)
    .where(and(sql`${mixDownloads.createdAt} >= ${f}::timestamptz`, sql`${mixDownloads.createdAt} < ${t}::timestamptz`))
    .groupBy(mixDownloads.mixId);
  const out = new Map<string, { mixId: string; plays: number; downloads: number }>();
  for (const p of plays) out.set(p.mixId, { mixId: p.mixId, plays: Number(p.n), downloads: 0 });
  for (const d of downloads) out.set(d.mixId, { mixId: d.mixId, plays: out.get(d.mixId)?.plays ?? 0, downloads: Number(d.n) });
  return [...out.values()];
}

/** The titles of these mixes (analytics' top mixes). */
export async function mixTitles(db: Db, ids: readonly string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const rows = await db
    .select({ id: vipMixes.id, title: vipMixes.title })
    .from(vipMixes)
    .where(inArray(vipMixes.id, [...ids]));
  return new Map(rows.map((r) => [r.id, r.title]));
}
