import { and, desc, gt, inArray, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { liveActivity, liveSessions, type LiveSessionRow } from '../../db/schema';
import { DAY_MS, MINUTE_MS } from '../../../contracts/time';
import type { Tier } from '../../../contracts/tiers';

/** A heartbeat after this long a silence starts a new visit (session time and page views restart). */
export const VISIT_GAP_MS = 30 * MINUTE_MS;
/** Sessions and activity older than this leave the tables. */
export const LIVE_RETENTION_MS = DAY_MS;

export const memberKey = (userId: string) => `m:${userId}`;
export const anonymousKey = (anonymousId: string) => `a:${anonymousId}`;

export interface Beat {
  key: string;
  userId: string | null;
  tier: Tier | null;
  page: string;
  country: string | null;
  city: string | null;
  now: Date;
}

/**
 * Writes a batch of heartbeats (at most one per visitor) as one multi-row upsert: each visitor's row is
 * created or moved forward. Returns the beats that entered a new page or began a visit, which the
 * caller logs as activity for members.
 */
export async function recordBeats(
  db: Db,
  beats: readonly Beat[],
): Promise<{ key: string; userId: string | null; page: string; newVisit: boolean; at: Date }[]> {
  if (!beats.length) return [];
  const lapsed = sql`${liveSessions.lastSeenAt} < excluded.last_seen_at - ${`${VISIT_GAP_MS} milliseconds`}::interval`;
  const moved = sql`${liveSessions.currentPage} <> excluded.current_page`;
  const rows = await db
    .insert(liveSessions)
    .values(
      beats.map((b) => ({
        id: b.key,
        userId: b.userId,
        tier: b.tier,
        currentPage: b.page,
        country: b.country,
        city: b.city,
        startedAt: b.now,
        lastSeenAt: b.now,
        pageChangedAt: b.now,
        pageViews: 1,
      })),
    )
    .onConflictDoUpdate({
      target: liveSessions.id,
      set: {
        startedAt: sql`CASE WHEN ${lapsed} THEN excluded.started_at ELSE ${liveSessions.startedAt} END`,
        pageViews: sql`CASE WHEN ${lapsed} THEN 1 WHEN ${moved} THEN ${liveSessions.pageViews} + 1 ELSE ${liveSessions.pageViews} END`,
        pageChangedAt: sql`CASE WHEN ${lapsed} OR ${moved} THEN excluded.page_changed_at ELSE ${liveSessions.pageChangedAt} END`,
        currentPage: sql`excluded.current_page`,
        lastSeenAt: sql`excluded.last_seen_at`,
        tier: sql`excluded.tier`,
        country: sql`excluded.country`,
        city: sql`excluded.city`,
      },
    })
    .returning({
      key: liveSessions.id,
      userId: liveSessions.userId,
      page: liveSessions.currentPage,
      at: liveSessions.lastSeenAt,
      entered: sql<boolean>`${liveSessions.pageChangedAt} = ${liveSessions.lastSeenAt}`,
      newVisit: sql<boolean>`${liveSessions.startedAt} = ${liveSessions.lastSeenAt}`,
    });
  return rows.filter((r) => r.entered).map(({ entered: _entered, ...r }) => r);
}

export async function deleteLiveSessions(db: Db, keys: readonly string[]): Promise<void> {
  if (keys.length) await db.delete(liveSessions).where(inArray(liveSessions.id, [...keys]));
}

export async function insertActivity(db: Db, values: readonly { userId: string; action: string; page: string; at: Date }[]): Promise<void> {
  if (values.length) await db.insert(liveActivity).values([...values]);
}

export interface LiveCounts {
  onlineNow: number;
  membersOnline: number;
  vipOnline: number;
  totalSessions: number;
  anonymousOnline: number;
  anonymousSessions: number;
  anonymousPageViews: number;
}

/** The monitor's figures in one pass over the last day's visits. */
export async function liveCounts(db: Db, onlineSince: Date, daySince: Date): Promise<LiveCounts> {
  const online = sql`${liveSessions.lastSeenAt} > ${onlineSince.toISOString()}::timestamptz`;
  const anonymous = sql`${liveSessions.userId} IS NULL`;
  const rows = await db
    .select({
      onlineNow: sql<number>`count(*) FILTER (WHERE ${online})::int`,
      membersOnline: sql<number>`count(*) FILTER (WHERE ${online} AND ${liveSessions.userId} IS NOT NULL)::int`,
      vipOnline: sql<number>`count(*) FILTER (WHERE ${online} AND ${liveSessions.tier} = 'vip')::int`,
      totalSessions: sql<number>`count(*)::int`,
      anonymousOnline: sql<number>`count(*) FILTER (WHERE ${online} AND ${anonymous})::int`,
      anonymousSessions: sql<number>`count(*) FILTER (WHERE ${anonymous})::int`,
      anonymousPageViews: sql<number>`coalesce(sum(${liveSessions.pageViews}) FILTER (WHERE ${anonymous}), 0)::int`,
    })
    .from(liveSessions)
    .where(gt(liveSessions.lastSeenAt, daySince));
  return rows[0] ?? { onlineNow: 0, membersOnline: 0, vipOnline: 0, totalSessions: 0, anonymousOnline: 0, anonymousSessions: 0, anonymousPageViews: 0 };
}

/**
 * Online sessions, members first, then the most recently seen visitors; at most `limit`. Two index
 * scans in last-seen order (members have their own partial index), so 50,000 visitors are never sorted.
 */
export async function onlineSessions(db: Db, onlineSince: Date, limit: number): Promise<LiveSessionRow[]> {
  const online = gt(liveSessions.lastSeenAt, onlineSince);
  const members = await db
    .select()
    .from(liveSessions)
    .where(and(online, isNotNull(liveSessions.userId)))
    .orderBy(desc(liveSessions.lastSeenAt))
    .limit(limit);
  if (members.length >= limit) return members;
  const visitors = await db
    .select()
    .from(liveSessions)
    .where(and(online, isNull(liveSessions.userId)))
    .orderBy(desc(liveSessions.lastSeenAt))
    .limit(limit - members.length);
  return [...members, ...visitors];
}

export async function recentActivity(db: Db, limit: number) {
  return db.select().from(liveActivity).orderBy(desc(liveActivity.at)).limit(limit);
}

/** Drops visits and activity older than the retention window. */
export async function pruneLive(db: Db, before: Date): Promise<void> {
  await db.delete(liveSessions).where(lt(liveSessions.lastSeenAt, before));
  await db.delete(liveActivity).where(lt(liveActivity.at, before));
}
