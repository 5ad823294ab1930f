import { and, asc, eq, gte, inArray, isNotNull, isNull, lt, sql, type SQL } from 'drizzle-orm';
import { MIN_SESSION_S } from '../../../contracts/analytics-values';
import { DAY_MS } from '../../../contracts/time';
import type { Db } from '../../db/client';
import { listeningSessions } from '../../db/schema';

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

/** What the rollups and the music report read of a session: no identity beyond network and user agent. */
const spanColumns = {
  id: listeningSessions.id,
  channelId: listeningSessions.channelId,
  mount: listeningSessions.mount,
  network: listeningSessions.network,
  userAgent: listeningSessions.userAgent,
  country: listeningSessions.country,
  player: listeningSessions.player,
  startedAt: listeningSessions.startedAt,
  lastSeenAt: listeningSessions.lastSeenAt,
  endedAt: listeningSessions.endedAt,
};
export type SessionSpanRow = Awaited<ReturnType<typeof spanPage>>[number];

/** Rows of one read: a day of a busy station is tens of thousands, parsed a page at a time between listeners' requests. */
const SPAN_PAGE_ROWS = 500;

function spanPage(db: Db, where: SQL | undefined, after: { startedAt: Date; id: string } | null) {
  const s = listeningSessions;
  return db
    .select(spanColumns)
    .from(s)
    .where(and(where, after ? sql`(${s.startedAt}, ${s.id}) > (${after.startedAt.toISOString()}::timestamptz, ${after.id}::uuid)` : undefined))
    .orderBy(asc(s.startedAt), asc(s.id))
    .limit(SPAN_PAGE_ROWS);
}

/**
 * Sessions that were listening at some time in [from, to), a page at a time: the rollups' input.
 * Every statement reads one bounded index range, so none walks the days before `from` or holds the
 * database for long (PGlite keeps no statistics, so its planner cannot tell a narrow one-sided range
 * from a wide one): those that started within, a page at a time in (started_at, id) order; those that
 * started before and ended after `from`, a day of end times per statement up to `now` (ended_at and
 * started_at are one index); those still open and seen after `from`. A page is used and dropped
 * before the next is read: a busy day's rows never pile up.
 */
export async function* sessionPagesOverlapping(db: Db, from: Date, to: Date, now: Date = new Date()): AsyncGenerator<SessionSpanRow[]> {
  const s = listeningSessions;
  const startedWithin = and(gte(s.startedAt, from), lt(s.startedAt, to));
  for (let after: SessionSpanRow | null = null; ;) {
    const page: SessionSpanRow[] = await spanPage(db, startedWithin, after);
    if (page.length) yield page;
    after = page.at(-1) ?? null;
    if (page.length < SPAN_PAGE_ROWS) break;
  }
  for (let endedFrom = from.getTime(); endedFrom <= now.getTime(); endedFrom += DAY_MS) {
    const ranInto = await db
      .select(spanColumns)
      .from(s)
      .where(and(gte(s.endedAt, new Date(endedFrom)), lt(s.endedAt, new Date(endedFrom + DAY_MS)), lt(s.startedAt, from)));
    if (ranInto.length) yield ranInto;
  }
  const open = await db
    .select(spanColumns)
    .from(s)
    .where(and(isNull(s.endedAt), lt(s.startedAt, from), gte(s.lastSeenAt, from)));
  if (open.length) yield open;
}

/** Drops ended sessions older than `before` (the retention pass: raw sessions are kept 30 days). */
export async function pruneEndedSessions(db: Db, before: Date): Promise<void> {
  await db.delete(listeningSessions).where(and(isNotNull(listeningSessions.endedAt), lt(listeningSessions.endedAt, before)));
}
