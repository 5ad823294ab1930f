import { and, asc, eq, inArray, isNotNull, isNull, lt, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { MIN_SESSION_S } from '../../../contracts/analytics-values';
import { DAY_MS, HOUR_MS } from '../../../contracts/time';
import type { Db } from '../../db/client';
import { executeRows } from '../../db/rows';
import { listeningSessions } from '../../db/schema';
import type { SessionSpan } from './listening-rollup';

/** Listening sessions (listening_sessions): the only place that reads or writes them. */

export type ListeningSessionRow = typeof listeningSessions.$inferSelect;
export type NewListeningSession = Omit<typeof listeningSessions.$inferInsert, 'id' | 'endedAt' | 'durationS'>;

/** The open sessions one Icecast's list of one mount may name. */
export function openSessionsOn(db: Db, icecast: string, mount: string): Promise<ListeningSessionRow[]> {
  return db
    .select()
    .from(listeningSessions)
    .where(and(eq(listeningSessions.icecast, icecast), eq(listeningSessions.mount, mount), isNull(listeningSessions.endedAt)));
}

/** Opens sessions for listeners a list names for the first time. */
export async function openSessions(db: Db, rows: readonly NewListeningSession[]): Promise<void> {
  if (rows.length) await db.insert(listeningSessions).values([...rows]);
}

/** Sessions the list named again: still listening at `at`. */
export async function touchSessions(db: Db, ids: readonly string[], at: Date): Promise<void> {
  if (ids.length)
    await db
      .update(listeningSessions)
      .set({ lastSeenAt: at })
      .where(inArray(listeningSessions.id, [...ids]));
}

/**
 * Ends sessions the list no longer names, at the last time a list named them; those shorter than
 * MIN_SESSION_S were reconnects and are deleted. Returns how many ended and stay.
 */
export async function endSessions(db: Db, ids: readonly string[]): Promise<number> {
  if (!ids.length) return 0;
  const ended = await db
    .update(listeningSessions)
    .set({
      endedAt: sql`${listeningSessions.lastSeenAt}`,
      durationS: sql`greatest(0, floor(extract(epoch from ${listeningSessions.lastSeenAt} - ${listeningSessions.startedAt})))::integer`,
    })
    .where(and(inArray(listeningSessions.id, [...ids]), isNull(listeningSessions.endedAt)))
    .returning({ id: listeningSessions.id, durationS: listeningSessions.durationS });
  const short = ended.filter((r) => (r.durationS ?? 0) < MIN_SESSION_S).map((r) => r.id);
  if (short.length) await db.delete(listeningSessions).where(inArray(listeningSessions.id, short));
  return ended.length - short.length;
}

/** A member's own sessions (their data export), oldest first. */
export function sessionsOfMember(db: Db, userId: string): Promise<ListeningSessionRow[]> {
  return db.select().from(listeningSessions).where(eq(listeningSessions.userId, userId)).orderBy(asc(listeningSessions.startedAt));
}

/**
 * Sessions that started within one window are one read (about 1,000 rows an hour at 2,000 listeners):
 * no order and no cursor, so a plan made without statistics (PGlite keeps none, PostgreSQL's lag
 * behind a day just written) stays one index range; a keyset page sorted what was left of the day
 * for every page.
 */
const SPAN_WINDOW_MS = HOUR_MS;

const ls = listeningSessions;
const epochMs = (column: AnyPgColumn) => sql`floor(extract(epoch from ${column}) * 1000)::float8`;
const at = (d: Date | number) => sql`${new Date(d).toISOString()}::timestamptz`;

/** Sessions as the rollups read them, straight from the driver (rows mapped one by one cost more than the fold). */
function readSpans(db: Db, where: SQL): Promise<SessionSpan[]> {
  return executeRows<SessionSpan>(
    db,
    sql`select ${ls.channelId} as "channelId", ${ls.mount} as "mount", ${ls.network} as "network", ${ls.userAgent} as "userAgent",
      ${ls.country} as "country", ${ls.player} as "player", ${epochMs(ls.startedAt)} as "startedMs", ${epochMs(ls.endedAt)} as "endedMs",
      ${epochMs(ls.lastSeenAt)} as "lastSeenMs"
    from ${ls} where ${where}`,
  );
}

/**
 * Sessions that were listening at some time in [from, to), a part at a time: the rollups' input.
 * Every statement reads one bounded index range, so none walks the days before `from` or holds the
 * database for long: those that started within, a window of start times per statement; those that
 * started before and ended after `from`, a day of end times per statement up to `now` (ended_at and
 * started_at are one index); those still open and seen after `from`. A part is used and dropped
 * before the next is read: a busy day's rows never pile up.
 */
export async function* sessionPagesOverlapping(db: Db, from: Date, to: Date, now: Date = new Date()): AsyncGenerator<SessionSpan[]> {
  for (let t = from.getTime(); t < to.getTime(); t += SPAN_WINDOW_MS) {
    const startedWithin = await readSpans(db, sql`${ls.startedAt} >= ${at(t)} and ${ls.startedAt} < ${at(Math.min(t + SPAN_WINDOW_MS, to.getTime()))}`);
    if (startedWithin.length) yield startedWithin;
  }
  for (let endedFrom = from.getTime(); endedFrom <= now.getTime(); endedFrom += DAY_MS) {
    const ranInto = await readSpans(db, sql`${ls.endedAt} >= ${at(endedFrom)} and ${ls.endedAt} < ${at(endedFrom + DAY_MS)} and ${ls.startedAt} < ${at(from)}`);
    if (ranInto.length) yield ranInto;
  }
  const open = await readSpans(db, sql`${ls.endedAt} is null and ${ls.startedAt} < ${at(from)} and ${ls.lastSeenAt} >= ${at(from)}`);
  if (open.length) yield open;
}

/** Drops ended sessions older than `before` (the retention pass: raw sessions are kept 30 days). */
export async function pruneEndedSessions(db: Db, before: Date): Promise<void> {
  await db.delete(listeningSessions).where(and(isNotNull(listeningSessions.endedAt), lt(listeningSessions.endedAt, before)));
}
