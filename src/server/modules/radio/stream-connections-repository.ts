import { and, desc, eq, inArray, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { xactLockOn } from '../../db/advisory-locks';
import { streamConnections } from '../../db/schema';

/** Members' premium-stream connections (stream_connections): the only place that reads or writes them. */

export type StreamConnectionRow = typeof streamConnections.$inferSelect;
export type NewStreamConnection = Omit<typeof streamConnections.$inferInsert, 'id' | 'endedAt'>;

/**
 * Opens a connection row unless the member already holds `max` open ones. Counted and written under a
 * per-member lock, so two connections arriving together cannot both take the last place. A row with
 * the same Icecast connection id is closed first: Icecast restarted and numbers connections anew.
 */
export async function openConnectionWithin(db: Db, values: NewStreamConnection, max: number, now: Date): Promise<StreamConnectionRow | null> {
  return db.transaction(async (tx) => {
    await tx.execute(xactLockOn('streamConnections', values.userId));
    await tx
      .update(streamConnections)
      .set({ endedAt: now })
      .where(and(eq(streamConnections.icecast, values.icecast), eq(streamConnections.clientId, values.clientId), isNull(streamConnections.endedAt)));
    const [open] = await tx
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(streamConnections)
      .where(and(eq(streamConnections.userId, values.userId), isNull(streamConnections.endedAt)));
    if ((open?.n ?? 0) >= max) return null;
    const [row] = await tx
      .insert(streamConnections)
      .values({ ...values, startedAt: now })
      .returning();
    return row ?? null;
  });
}

/** Closes the connection Icecast reports gone; false when none was open under that id. */
export async function closeConnection(db: Db, icecast: string, clientId: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(streamConnections)
    .set({ endedAt: now })
    .where(and(eq(streamConnections.icecast, icecast), eq(streamConnections.clientId, clientId), isNull(streamConnections.endedAt)))
    .returning({ id: streamConnections.id });
  return rows.length > 0;
}

/** The member's open connections, oldest first. */
export function openConnectionsOf(db: Db, userId: string): Promise<StreamConnectionRow[]> {
  return db
    .select()
    .from(streamConnections)
    .where(and(eq(streamConnections.userId, userId), isNull(streamConnections.endedAt)))
    .orderBy(streamConnections.startedAt);
}

/** Closes these open rows (Icecast's own list, read just now, no longer holds them). */
export async function closeConnectionsByIds(db: Db, ids: readonly string[], at: Date): Promise<number> {
  if (ids.length === 0) return 0;
  const rows = await db
    .update(streamConnections)
    .set({ endedAt: at })
    .where(and(inArray(streamConnections.id, [...ids]), isNull(streamConnections.endedAt)))
    .returning({ id: streamConnections.id });
  return rows.length;
}

/** Every open row on a mount. */
export function openConnectionsOnMount(db: Db, mount: string): Promise<StreamConnectionRow[]> {
  return db
    .select()
    .from(streamConnections)
    .where(and(eq(streamConnections.mount, mount), isNull(streamConnections.endedAt)));
}

/**
 * One reading of a mount's listener list: rows it names are renewed, rows it misses (started before
 * the read) count a miss and end at the second one in a row. Returns how many ended.
 */
export async function recordListenerRead(db: Db, seen: readonly string[], missed: readonly string[], at: Date): Promise<number> {
  if (seen.length) {
    await db
      .update(streamConnections)
      .set({ lastSeenAt: at, missedReads: 0 })
      .where(inArray(streamConnections.id, [...seen]));
  }
  if (!missed.length) return 0;
  const ended = await db
    .update(streamConnections)
    .set({
      missedReads: sql`${streamConnections.missedReads} + 1`,
      endedAt: sql`case when ${streamConnections.missedReads} + 1 >= ${MISSED_READS_TO_END} then ${at.toISOString()}::timestamptz else null end`,
    })
    .where(and(inArray(streamConnections.id, [...missed]), isNull(streamConnections.endedAt)))
    .returning({ endedAt: streamConnections.endedAt });
  return ended.filter((r) => r.endedAt !== null).length;
}

/** Listener lists in a row that must miss a connection before its row ends. */
export const MISSED_READS_TO_END = 2;

/** The member's connections, open ones first, then the most recent; at most `limit`. */
export function connectionsOf(db: Db, userId: string, limit: number): Promise<StreamConnectionRow[]> {
  return db
    .select()
    .from(streamConnections)
    .where(eq(streamConnections.userId, userId))
    .orderBy(sql`${streamConnections.endedAt} is null desc`, desc(streamConnections.startedAt))
    .limit(limit);
}

/** Drops ended connections older than `before` (the retention pass). */
export async function pruneEndedConnections(db: Db, before: Date): Promise<void> {
  await db.delete(streamConnections).where(and(isNotNull(streamConnections.endedAt), lt(streamConnections.endedAt, before)));
}
