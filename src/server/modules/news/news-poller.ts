import robotsParser from 'robots-parser';
import type { NewsFetchReport } from '../../../contracts/news';
import { MINUTE_MS } from '../../../contracts/time';
import type { Config } from '../../config';
import type { Database, Db } from '../../db/client';
import { runInBackground } from '../../db/lanes';
import type { NewsSourceRow } from '../../db/schema';
import { FetchError, safeFetch, type SafeFetchOptions, type SafeFetchResult } from '../../lib/outbound-http';
import { decodeBody, type DecodedBody } from './feed-encoding';
import { FeedFormatError, pageEntry, readFeed, whyNoItems, type FeedRead } from './feed-items';
import { CLAIM_MS, nextFetchDelay, shouldPause } from './news-backoff';
import { claimDueSources, pruneItems, recordFetch, releaseClaims, upsertItems } from './news-repository';

/**
 * The news poll (docs/decisions/0024-news-from-the-real-web.md): a poll claims the sources that are
 * due and puts them on this instance's queue; a few workers fetch and parse them in the background,
 * never inside a request. Scheduled every NEWS_POLL_MIN; the news panel's Refresh only queues. A
 * claim is one UPDATE, so instances polling on their own clocks never fetch one source twice.
 */

export type PollTrigger = 'scheduled' | 'refresh';

/** A refresh (anyone may press it) never fetches a working source again within this time. */
export const REFRESH_MIN_GAP_MS = MINUTE_MS;
/** The product token robots.txt rules are matched against (lib/outbound-http.ts USER_AGENT starts with it). */
const ROBOTS_AGENT = 'DHRNewsBot';
/** Sources fetched at once per instance. */
const CONCURRENCY = 4;
const FEED_ACCEPT = 'application/rss+xml, application/atom+xml, application/feed+json, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.5';
const PAGE_ACCEPT = 'text/html, application/xhtml+xml;q=0.9, */*;q=0.5';

export interface SourceOutcome {
  status: 'ok' | 'not_modified' | 'failed';
  added: number;
  error?: string;
}

export interface PollerDeps {
  database: Database;
  config: Config;
  /** Test hook: shorter timeouts, a custom resolver. */
  fetchOptions?: SafeFetchOptions;
  log?: { warn(obj: object, msg: string): void };
  /** Called when the queue has drained after storing new items (the plugin drops its cached lists). */
  onStored?: () => void;
}

/** The address relative links resolve against: Content-Location, else the address after redirects. */
function documentAddress(res: SafeFetchResult): string {
  const location = res.headers['content-location'];
  if (typeof location !== 'string' || !location.trim()) return res.url;
  try {
    const u = new URL(location.trim(), res.url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : res.url;
  } catch {
    return res.url;
  }
}

function reportOf(decoded: DecodedBody | undefined, read: FeedRead | undefined, added: number): NewsFetchReport {
  return {
    encoding: decoded?.encoding ?? null,
    format: read?.format ?? null,
    found: read?.found ?? 0,
    added,
    kept: read?.entries.length ?? 0,
    dropped: Object.entries(read?.dropped ?? {}).map(([reason, count]) => ({ reason, count })),
    warnings: [...(decoded?.warnings ?? []), ...(read?.warnings ?? [])].slice(0, 10),
    note: read ? whyNoItems(read) : null,
  };
}

/** Stores what a fetch read, in one transaction: one commit (on PGlite, one WAL flush) per source. Returns the items added. */
async function storeRead(
  db: Db,
  source: NewsSourceRow,
  decoded: DecodedBody,
  read: FeedRead,
  fetched: { etag: string | null; lastModified: string | null; httpStatus: number; nextFetchAt: Date },
): Promise<number> {
  return db.transaction(async (tx) => {
    const n = await upsertItems(tx, source, read.entries);
    await pruneItems(tx, source.id);
    await recordFetch(tx, source.id, { status: 'ok', ...fetched, report: reportOf(decoded, read, n) });
    return n;
  });
}

/** robots.txt per RFC 9309: a 4xx means no rules; no answer or a 5xx means stay out. */
async function robotsAllows(pageUrl: string, fetchOpts: SafeFetchOptions): Promise<{ allowed: boolean; reason?: string }> {
  const robotsUrl = new URL('/robots.txt', pageUrl).href;
  try {
    const res = await safeFetch(robotsUrl, { ...fetchOpts, maxBytes: 512 * 1024, accept: 'text/plain' });
    const robots = robotsParser(robotsUrl, decodeBody(res.body, res.headers['content-type']).text);
    return robots.isAllowed(pageUrl, ROBOTS_AGENT) === false ? { allowed: false, reason: 'robots.txt disallows this page' } : { allowed: true };
  } catch (err) {
    if (err instanceof FetchError && err.code === 'http' && err.status !== undefined && err.status >= 400 && err.status < 500) return { allowed: true };
    const why = err instanceof Error ? err.message : 'unreachable';
    return { allowed: false, reason: `robots.txt could not be read (${why})` };
  }
}

/** Records a failed fetch (never throws): the error shown to the admin, and when to try again (with backoff, or paused). */
async function recordFailure(
  db: Db,
  source: NewsSourceRow,
  failure: { err: unknown; httpStatus: number | null; decoded: DecodedBody | undefined },
  intervalMs: number,
  log: PollerDeps['log'],
): Promise<SourceOutcome> {
  const { err, httpStatus, decoded } = failure;
  const known = err instanceof FetchError || err instanceof FeedFormatError;
  const error = known ? err.message : 'unexpected error while reading the source';
  if (!known) log?.warn({ err, source: source.url }, 'news source failed unexpectedly');
  const now = new Date();
  await recordFetch(
    db,
    source.id,
    {
      status: 'failed',
      error,
      httpStatus: err instanceof FetchError ? (err.status ?? null) : httpStatus,
      report: decoded ? reportOf(decoded, undefined, 0) : null,
      nextFetchAt: new Date(now.getTime() + nextFetchDelay(source.errorCount + 1, intervalMs)),
      pause: shouldPause(source.failingSince ?? now, now),
    },
    now,
  ).catch(() => undefined);
  return { status: 'failed', added: 0, error };
}

export function createNewsPoller(deps: PollerDeps) {
  const { database, config } = deps;
  const db = database.db;
  const intervalMs = Math.max(1, config.NEWS_POLL_MIN * MINUTE_MS);
  const fetchOpts = (): SafeFetchOptions => ({ allowPrivate: config.NEWS_ALLOW_PRIVATE, ...deps.fetchOptions });
  const closing = new AbortController();
  const queue: NewsSourceRow[] = [];
  const queued = new Set<string>();
  let active = 0;
  let addedSinceIdle = 0;
  let idleWaiters: (() => void)[] = [];

  /** Fetches one source and records what it found; never throws (the outcome says what went wrong). */
  async function fetchSource(source: NewsSourceRow): Promise<SourceOutcome> {
    let decoded: DecodedBody | undefined;
    let httpStatus: number | null = null;
    try {
      if (source.kind === 'web') {
        const robots = await robotsAllows(source.url, { ...fetchOpts(), signal: closing.signal });
        if (!robots.allowed) throw new FeedFormatError(robots.reason ?? 'robots.txt disallows this page');
      }
      const res = await safeFetch(source.url, {
        ...fetchOpts(),
        accept: source.kind === 'rss' ? FEED_ACCEPT : PAGE_ACCEPT,
        etag: source.etag,
        lastModified: source.lastModified,
        signal: closing.signal,
      });
      httpStatus = res.status;
      const nextFetchAt = new Date(Date.now() + nextFetchDelay(0, intervalMs));
      if (res.notModified) {
        await recordFetch(db, source.id, { status: 'not_modified', httpStatus, report: source.lastReport, nextFetchAt });
        return { status: 'not_modified', added: 0 };
      }
      const contentType = typeof res.headers['content-type'] === 'string' ? res.headers['content-type'] : undefined;
      decoded = decodeBody(res.body, contentType, source.kind === 'web');
      const read = source.kind === 'rss' ? await readFeed(decoded.text, documentAddress(res)) : await pageRead(decoded.text, res.url);
      const added = await storeRead(db, source, decoded, read, { etag: res.etag, lastModified: res.lastModified, httpStatus, nextFetchAt });
      return { status: 'ok', added };
    } catch (err) {
      return recordFailure(db, source, { err, httpStatus, decoded }, intervalMs, deps.log);
    }
  }

  function settleIdle() {
    if (active > 0 || queue.length > 0) return;
    if (addedSinceIdle > 0) deps.onStored?.();
    addedSinceIdle = 0;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const w of waiters) w();
  }

  function pump() {
    while (active < CONCURRENCY && queue.length > 0 && !closing.signal.aborted) {
      const source = queue.shift() as NewsSourceRow;
      active += 1;
      // Ingest is background work, also when a request queued it: listeners' statements go first (db/lanes.ts).
      void runInBackground(() => fetchSource(source))
        .catch((): SourceOutcome => ({ status: 'failed', added: 0 }))
        .then((outcome) => {
          addedSinceIdle += outcome.added;
          queued.delete(source.id);
          active -= 1;
          pump();
        });
    }
    settleIdle();
  }

  /** Puts sources on the queue (a source already on it is not added twice); returns how many were added. */
  function enqueue(sources: NewsSourceRow[]): number {
    const fresh = sources.filter((s) => !queued.has(s.id));
    for (const s of fresh) {
      queued.add(s.id);
      queue.push(s);
    }
    pump();
    return fresh.length;
  }

  return {
    /** Claims the due sources and queues them; answers at once with how many were queued. */
    async poll(trigger: PollTrigger): Promise<number> {
      if (closing.signal.aborted) return 0;
      const now = new Date();
      const rule =
        trigger === 'refresh'
          ? { dueBy: now, fetchedBefore: new Date(now.getTime() - REFRESH_MIN_GAP_MS), refresh: true }
          : // A timer's drift must not skip a round: due a tenth of an interval early.
            { dueBy: new Date(now.getTime() + intervalMs * 0.1), fetchedBefore: new Date(now.getTime() - intervalMs * 0.9), refresh: false };
      const claimed = await claimDueSources(db, { ...rule, now, claimUntil: new Date(now.getTime() + CLAIM_MS) });
      return enqueue(claimed);
    },
    enqueue,
    fetchSource,
    /** Resolves once the queue is empty and no fetch is running. */
    idle(): Promise<void> {
      if (active === 0 && queue.length === 0) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
    /** Shutdown: fetches in flight are aborted, waiting sources are handed back to the next poll. */
    async stop(): Promise<void> {
      closing.abort();
      const waiting = queue.splice(0).map((s) => s.id);
      await releaseClaims(db, waiting).catch(() => undefined);
      for (const id of waiting) queued.delete(id);
      await this.idle();
    },
  };
}

/** A web page read as one item (docs/decisions/0017: one item per listed page). */
async function pageRead(html: string, pageUrl: string): Promise<FeedRead> {
  return { format: 'web page', found: 1, entries: [await pageEntry(html, pageUrl)], dropped: {}, warnings: [] };
}

export type NewsPoller = ReturnType<typeof createNewsPoller>;
