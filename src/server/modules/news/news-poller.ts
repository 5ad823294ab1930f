import robotsParser from 'robots-parser';
import { MINUTE_MS } from '../../../contracts/time';
import type { NewsRefreshResult } from '../../../contracts/news';
import type { Config } from '../../config';
import { tryXactLock } from '../../db/advisory-locks';
import type { Database } from '../../db/client';
import type { NewsSourceRow } from '../../db/schema';
import { FetchError, safeFetch, type SafeFetchOptions } from '../../lib/safe-fetch';
import { FeedFormatError, pageEntry, parseFeedEntries } from './feed-items';
import { dueSources, pruneItems, recordFetch, upsertItems } from './news-repository';

/**
 * The news poll: fetches the sources that are due, stores new items, records each source's status.
 * Scheduled every NEWS_POLL_MIN; the news panel's Refresh and an admin's "Fetch now" run it too. On
 * PostgreSQL one instance polls at a time (advisory lock `newsPoll`), and a source fetched recently by
 * any instance is not due, so instances polling on their own clocks do not fetch more often.
 */

export type PollTrigger = 'scheduled' | 'refresh';

/** A refresh (anyone may press it) never fetches a source again within this time. */
export const REFRESH_MIN_GAP_MS = MINUTE_MS;
/** The product token robots.txt rules are matched against (lib/safe-fetch.ts USER_AGENT starts with it). */
const ROBOTS_AGENT = 'DHRNewsBot';
/** Sources fetched at once. */
const CONCURRENCY = 4;

export interface PollResult extends NewsRefreshResult {
  /** Another instance was polling: nothing was done here. */
  skipped: boolean;
}

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
}

export function createNewsPoller(deps: PollerDeps) {
  const { database, config } = deps;
  const db = database.db;
  const fetchOpts = (): SafeFetchOptions => ({ allowPrivate: config.NEWS_ALLOW_PRIVATE, ...deps.fetchOptions });
  let running: Promise<PollResult> | null = null;

  /** robots.txt per RFC 9309: a 4xx means no rules; no answer or a 5xx means stay out. */
  async function robotsAllows(pageUrl: string): Promise<{ allowed: boolean; reason?: string }> {
    const robotsUrl = new URL('/robots.txt', pageUrl).href;
    try {
      const res = await safeFetch(robotsUrl, { ...fetchOpts(), maxBytes: 512 * 1024, accept: 'text/plain' });
      const robots = robotsParser(robotsUrl, res.body.toString('utf8'));
      return robots.isAllowed(pageUrl, ROBOTS_AGENT) === false ? { allowed: false, reason: 'robots.txt disallows this page' } : { allowed: true };
    } catch (err) {
      if (err instanceof FetchError && err.code === 'http' && /^HTTP 4\d\d/.test(err.message)) return { allowed: true };
      const why = err instanceof Error ? err.message : 'unreachable';
      return { allowed: false, reason: `robots.txt could not be read (${why})` };
    }
  }

  /** Fetches one source and stores what it found; never throws (the outcome says what went wrong). */
  async function fetchSource(source: NewsSourceRow, signal?: AbortSignal): Promise<SourceOutcome> {
    try {
      if (source.kind === 'web') {
        const robots = await robotsAllows(source.url);
        if (!robots.allowed) throw new FeedFormatError(robots.reason ?? 'robots.txt disallows this page');
      }
      const res = await safeFetch(source.url, {
        ...fetchOpts(),
        accept: source.kind === 'rss' ? 'application/rss+xml, application/atom+xml, application/feed+json, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.5' : 'text/html, application/xhtml+xml;q=0.9, */*;q=0.5',
        etag: source.etag,
        lastModified: source.lastModified,
        ...(signal ? { signal } : {}),
      });
      if (res.notModified) {
        await recordFetch(db, source.id, { status: 'not_modified' });
        return { status: 'not_modified', added: 0 };
      }
      const text = res.body.toString('utf8');
      const entries = source.kind === 'rss' ? parseFeedEntries(text, res.url) : [await pageEntry(text, res.url)];
      const added = await upsertItems(db, source, entries);
      await pruneItems(db, source.id);
      await recordFetch(db, source.id, { status: 'ok', etag: res.etag, lastModified: res.lastModified });
      return { status: 'ok', added };
    } catch (err) {
      const error = err instanceof FetchError || err instanceof FeedFormatError ? err.message : 'unexpected error while reading the source';
      if (!(err instanceof FetchError || err instanceof FeedFormatError)) deps.log?.warn({ err, source: source.url }, 'news source failed unexpectedly');
      await recordFetch(db, source.id, { status: 'failed', error }).catch(() => undefined);
      return { status: 'failed', added: 0, error };
    }
  }

  async function fetchAll(sources: NewsSourceRow[], signal?: AbortSignal): Promise<NewsRefreshResult> {
    const result = { fetched: 0, added: 0, failed: 0 };
    const queue = [...sources];
    const worker = async () => {
      for (let s = queue.shift(); s; s = queue.shift()) {
        if (signal?.aborted) return;
        const outcome = await fetchSource(s, signal);
        result.fetched += 1;
        result.added += outcome.added;
        if (outcome.status === 'failed') result.failed += 1;
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, queue.length) }, worker));
    return result;
  }

  async function run(trigger: PollTrigger, signal?: AbortSignal): Promise<PollResult> {
    // Scheduled: due after the poll interval (a little early, so a timer's drift never skips a round).
    const gap = trigger === 'refresh' ? REFRESH_MIN_GAP_MS : Math.max(0, config.NEWS_POLL_MIN * MINUTE_MS * 0.9);
    const before = new Date(Date.now() - gap);
    if (database.kind === 'postgres') {
      return database.db.transaction(async (tx) => {
        const res = (await tx.execute(tryXactLock('newsPoll'))) as unknown as { rows: { locked: boolean }[] };
        if (!res.rows[0]?.locked) return { fetched: 0, added: 0, failed: 0, skipped: true };
        // The lock is held by this transaction; the fetches write through the pool so their results show at once.
        return { ...(await fetchAll(await dueSources(db, before), signal)), skipped: false };
      });
    }
    return { ...(await fetchAll(await dueSources(db, before), signal)), skipped: false };
  }

  return {
    /** Polls the due sources, or joins the poll already running in this process. */
    poll(trigger: PollTrigger, signal?: AbortSignal): Promise<PollResult> {
      if (running) return running;
      const p = run(trigger, signal).finally(() => {
        running = null;
      });
      running = p;
      return p;
    },
    fetchSource,
    get current(): Promise<PollResult> | null {
      return running;
    },
  };
}

export type NewsPoller = ReturnType<typeof createNewsPoller>;
