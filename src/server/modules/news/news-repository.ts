import { createHash } from 'node:crypto';
import { and, count, desc, eq, gt, inArray, isNull, lt, lte, notInArray, or, sql } from 'drizzle-orm';
import type { NewsFetchReport, NewsItemType, NewsSourceKind, NewsSourceStatus, UpdateNewsSource } from '../../../contracts/news';
import { executeRows } from '../../db/rows';
import type { Db } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { newsItems, newsSources, type NewsItemRow, type NewsSourceRow } from '../../db/schema';
import type { FeedEntry } from './feed-items';

/** SQL for news_sources and news_items (this module owns both). */

/** Items kept per source: the oldest beyond this are dropped after each fetch. */
export const ITEMS_KEPT_PER_SOURCE = 200;

export class DuplicateSourceError extends Error {}

/** A source that works (or is given another chance): no failures, no backoff, no claim. */
const FRESH_FAILURE_STATE = { errorCount: 0, failingSince: null, autoPausedAt: null, nextFetchAt: null, claimedUntil: null } as const;

export interface SourceWithCount extends NewsSourceRow {
  itemCount: number;
}

export interface NewSource {
  kind: NewsSourceKind;
  name: string;
  url: string;
  itemType: NewsItemType;
  priority: number;
}

/** NEWS_FEEDS on a first start: only when no source was ever added (removed ones keep their row). */
export async function seedSourcesOnce(db: Db, sources: NewSource[]): Promise<number> {
  if (sources.length === 0) return 0;
  const [row] = await db.select({ n: count() }).from(newsSources);
  if ((row?.n ?? 0) > 0) return 0;
  const inserted = await db.insert(newsSources).values(sources).onConflictDoNothing().returning({ id: newsSources.id });
  return inserted.length;
}

export async function listSources(db: Db): Promise<SourceWithCount[]> {
  const counts = db
    .select({ sourceId: newsItems.sourceId, n: count().as('n') })
    .from(newsItems)
    .groupBy(newsItems.sourceId)
    .as('counts');
  const rows = await db
    .select({ source: newsSources, n: counts.n })
    .from(newsSources)
    .leftJoin(counts, eq(counts.sourceId, newsSources.id))
    .where(isNull(newsSources.removedAt))
    .orderBy(newsSources.createdAt);
  return rows.map((r) => ({ ...r.source, itemCount: Number(r.n ?? 0) }));
}

export async function findSource(db: Db, id: string): Promise<NewsSourceRow | undefined> {
  const [row] = await db
    .select()
    .from(newsSources)
    .where(and(eq(newsSources.id, id), isNull(newsSources.removedAt)));
  return row;
}

/** Adds a source; a removed source with the same address comes back (fresh status). */
export async function createSource(db: Db, s: NewSource): Promise<NewsSourceRow> {
  try {
    const [row] = await db
      .insert(newsSources)
      .values(s)
      .onConflictDoUpdate({
        target: newsSources.url,
        set: {
          ...s,
          paused: false,
          removedAt: null,
          etag: null,
          lastModified: null,
          lastFetchedAt: null,
          lastStatus: null,
          lastError: null,
          ...FRESH_FAILURE_STATE,
          httpStatus: null,
          lastReport: null,
        },
        // Only a removed row is revived; a live one is a duplicate (no row returned).
        setWhere: sql`${newsSources.removedAt} is not null`,
      })
      .returning();
    if (!row) throw new DuplicateSourceError();
    return row;
  } catch (err) {
    if (isUniqueViolation(err)) throw new DuplicateSourceError();
    throw err;
  }
}

export async function updateSource(db: Db, id: string, patch: UpdateNewsSource): Promise<NewsSourceRow | undefined> {
  const [row] = await db
    .update(newsSources)
    .set(patch)
    .where(and(eq(newsSources.id, id), isNull(newsSources.removedAt)))
    .returning();
  if (row && (patch.itemType !== undefined || patch.priority !== undefined || patch.name !== undefined)) {
    // Its items follow: the type and source name shown, and the priority the ranking adds.
    await db.update(newsItems).set({ type: row.itemType, priority: row.priority, source: row.name }).where(eq(newsItems.sourceId, id));
  }
  return row;
}

/** Marks the source removed and drops its items. */
export async function removeSource(db: Db, id: string): Promise<boolean> {
  const [row] = await db
    .update(newsSources)
    .set({ removedAt: new Date(), paused: true })
    .where(and(eq(newsSources.id, id), isNull(newsSources.removedAt)))
    .returning({ id: newsSources.id });
  if (!row) return false;
  await db.delete(newsItems).where(eq(newsItems.sourceId, id));
  return true;
}

export interface DueRule {
  now: Date;
  /** Due when its next fetch time is before this (a scheduled poll allows a little drift). */
  dueBy: Date;
  /** A source without a next fetch time (before migration 0010) is due when last fetched before this. */
  fetchedBefore: Date;
  /** The news panel's Refresh: a working source fetched before `fetchedBefore` is due whatever its next time. */
  refresh: boolean;
  claimUntil: Date;
}

/**
 * Claims the live, unpaused sources that are due and not claimed by another poll, and returns them.
 * One UPDATE: two polls (or instances) running at once never claim the same source, since the second
 * one re-reads a claimed row and finds it no longer due.
 */
export async function claimDueSources(db: Db, r: DueRule): Promise<NewsSourceRow[]> {
  const due = or(
    and(isNull(newsSources.nextFetchAt), or(isNull(newsSources.lastFetchedAt), lt(newsSources.lastFetchedAt, r.fetchedBefore))),
    lte(newsSources.nextFetchAt, r.dueBy),
    r.refresh ? and(eq(newsSources.errorCount, 0), lt(newsSources.lastFetchedAt, r.fetchedBefore)) : undefined,
  );
  const claimable = and(
    isNull(newsSources.removedAt),
    eq(newsSources.paused, false),
    or(isNull(newsSources.claimedUntil), lt(newsSources.claimedUntil, r.now)),
    due,
  );
  const rows = await db.update(newsSources).set({ claimedUntil: r.claimUntil }).where(claimable).returning();
  // Never-fetched first, then the longest waiting.
  return rows.sort((a, b) => (a.lastFetchedAt?.getTime() ?? 0) - (b.lastFetchedAt?.getTime() ?? 0));
}

export interface FetchRecord {
  status: NewsSourceStatus;
  error?: string | null;
  etag?: string | null;
  lastModified?: string | null;
  httpStatus?: number | null;
  report?: NewsFetchReport | null;
  nextFetchAt: Date;
  /** Failures only: the source is paused (7 days of failures). */
  pause?: boolean;
}

/** Records a fetch: status, report, the next fetch time; a 200 or 304 ends a run of failures. */
export async function recordFetch(db: Db, id: string, r: FetchRecord, at = new Date()): Promise<void> {
  const failed = r.status === 'failed';
  await db
    .update(newsSources)
    .set({
      lastFetchedAt: at,
      lastStatus: r.status,
      lastError: failed ? (r.error ?? 'failed').slice(0, 500) : null,
      httpStatus: r.httpStatus ?? null,
      lastReport: r.report ?? null,
      claimedUntil: null,
      nextFetchAt: r.nextFetchAt,
      ...(failed
        ? {
            errorCount: sql`${newsSources.errorCount} + 1`,
            failingSince: sql`coalesce(${newsSources.failingSince}, ${at.toISOString()}::timestamptz)`,
            ...(r.pause ? { paused: true, autoPausedAt: at } : {}),
          }
        : { errorCount: 0, failingSince: null }),
      // A 304 keeps the validators it was asked with; a failure keeps them for the next try.
      ...(r.status === 'ok' ? { etag: r.etag ?? null, lastModified: r.lastModified ?? null } : {}),
    })
    .where(eq(newsSources.id, id));
}

/** Resume a paused source: its failures are forgotten and it is due at once. Null when it is not paused. */
export async function resumeSource(db: Db, id: string): Promise<NewsSourceRow | undefined> {
  const [row] = await db
    .update(newsSources)
    .set({ paused: false, ...FRESH_FAILURE_STATE })
    .where(and(eq(newsSources.id, id), isNull(newsSources.removedAt), eq(newsSources.paused, true)))
    .returning();
  return row;
}

/** Sources claimed by a poll that are still waiting: a poll ending early (shutdown) hands them back. */
export async function releaseClaims(db: Db, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(newsSources)
    .set({ claimedUntil: null })
    .where(and(inArray(newsSources.id, ids), gt(newsSources.claimedUntil, new Date(0))));
}

/** The stable id of a fetched item: its source and its guid (or link). */
export function itemId(sourceId: string, key: string): string {
  return `n-${createHash('sha256').update(`${sourceId}\n${key}`).digest('hex').slice(0, 24)}`;
}

/**
 * Stores a fetch's entries: new ones are inserted, known ones (same guid or link) get the current
 * title, text and image but keep their first publication date. Returns how many were new.
 */
export async function upsertItems(db: Db, source: NewsSourceRow, entries: FeedEntry[], now = new Date()): Promise<number> {
  if (entries.length === 0) return 0;
  const byId = new Map<string, FeedEntry>();
  for (const e of entries) byId.set(itemId(source.id, e.key), e);
  const rows = [...byId].map(([id, e]) => ({
    id,
    title: e.title,
    description: e.description,
    link: e.link,
    image_url: e.imageUrl ?? null,
    // A date in the future (a feed's clock, or a typo) would pin the item on top: clamp to now.
    pub_date: (e.pubDate && e.pubDate.getTime() <= now.getTime() ? e.pubDate : now).toISOString(),
  }));
  // The items travel as one JSON parameter (json_to_recordset), the source's fields as five: a VALUES
  // list of 50 items is 600 parameters for the query builder to walk on the event loop, per source.
  const stored = await executeRows<{ inserted: boolean }>(
    db,
    sql`
    insert into ${newsItems} (id, title, description, link, image_url, pub_date, source, type, priority, source_id, origin)
    select r.id, r.title, r.description, r.link, r.image_url, r.pub_date, ${source.name}, ${source.itemType}, ${source.priority}, ${source.id}::uuid, ${source.kind}
    from json_to_recordset(${JSON.stringify(rows)}::json) as r(id text, title text, description text, link text, image_url text, pub_date timestamptz)
    on conflict (id) do update set title = excluded.title, description = excluded.description, link = excluded.link, image_url = excluded.image_url
    returning (xmax = 0) as inserted`,
  );
  // xmax is 0 only on rows this statement inserted (PostgreSQL and PGlite alike).
  return stored.filter((r) => r.inserted).length;
}

/** Keeps the newest ITEMS_KEPT_PER_SOURCE items of a source. */
export async function pruneItems(db: Db, sourceId: string): Promise<void> {
  const keep = db
    .select({ id: newsItems.id })
    .from(newsItems)
    .where(eq(newsItems.sourceId, sourceId))
    .orderBy(desc(newsItems.pubDate))
    .limit(ITEMS_KEPT_PER_SOURCE);
  await db.delete(newsItems).where(and(eq(newsItems.sourceId, sourceId), notInArray(newsItems.id, keep)));
}

/** The newest items of one tab of the news panel. */
export async function latestItems(db: Db, origin: NewsSourceKind, limit: number): Promise<NewsItemRow[]> {
  return db.select().from(newsItems).where(eq(newsItems.origin, origin)).orderBy(desc(newsItems.pubDate), newsItems.id).limit(limit);
}

/** The newest items of every tab: what the ranking chooses from. */
export async function rankingCandidates(db: Db, limit: number): Promise<NewsItemRow[]> {
  return db.select().from(newsItems).orderBy(desc(newsItems.pubDate), newsItems.id).limit(limit);
}

/** One item by id (its page's title), or undefined. */
export async function findNewsItem(db: Db, id: string): Promise<NewsItemRow | undefined> {
  const [row] = await db.select().from(newsItems).where(eq(newsItems.id, id)).limit(1);
  return row;
}
