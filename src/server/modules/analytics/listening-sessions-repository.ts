import { and, asc, eq, gte, inArray, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import { MIN_SESSION_S } from '../../../contracts/analytics-values';
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

/** Sessions that were listening at some time in [from, to): the rollups' input. */
export function sessionsOverlapping(db: Db, from: Date, to: Date): Promise<ListeningSessionRow[]> {
  return db
    .select()
    .from(listeningSessions)
    .where(and(lt(listeningSessions.startedAt, to), gte(sql`coalesce(${listeningSessions.endedAt}, ${listeningSessions.lastSeenAt})`, from)));
}

/** Drops ended sessions older than `before` (the retention pass: raw sessions are kept 30 days). */
export async function pruneEndedSessions(db: Db, before: Date): Promise<void> {
  await db.delete(listeningSessions).where(and(isNotNull(listeningSessions.endedAt), lt(listeningSessions.endedAt, before)));
}
