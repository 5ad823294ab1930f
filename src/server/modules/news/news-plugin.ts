import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { NEWS_LIST_MAX, newsListSchema, newsRefreshResultSchema, type NewsItemType, type NewsRefreshResult } from '../../../contracts/news';
import { MINUTE_MS, SECOND_MS } from '../../../contracts/time';
import { parseNewsFeeds } from '../../config';
import type { Db } from '../../db/client';
import { enforceRateLimit, RATE_RULES } from '../../lib/rate-limit';
import type { SafeFetchOptions } from '../../lib/outbound-http';
import { CachedRead, ChangeNotices } from '../../lib/cached-read';
import { access } from '../../plugins/access';
import type { MemoryAnswer } from '../../plugins/memory-answers';
import { COMMENTS_CHANNEL } from '../comments/comments-cache';
import { commentCountsSince } from '../comments/comments-repository';
import { createNewsPoller, type NewsPoller } from './news-poller';
import { rankItems, RANKING } from './news-ranking';
import { latestItems, rankingCandidates, seedSourcesOnce } from './news-repository';
import { forumRoutes } from './forum-routes';
import { newsSourcesRoutes } from './news-sources-routes';
import { toNewsItem } from './news-views';

declare module 'fastify' {
  interface FastifyInstance {
    news: NewsFeature;
  }
}

/** NOTIFY channel: the news changed (a poll stored items, an admin changed a source, a comment moved the ranking). */
export const NEWS_CHANNEL = 'news_changed';
/** The prioritized order ages with the clock: even without a change it is recomputed this often. */
const PRIORITIZED_TTL_MS = 5 * MINUTE_MS;
/** Items the ranking chooses from (the newest of every tab). */
const RANKING_POOL = 200;

/** Recent comments per discussion id (news item id), for the ranking; the comments module provides it. */
export type CommentActivity = (db: Db, itemIds: string[], since: Date) => Promise<Map<string, number>>;

export interface NewsFeature {
  poller: NewsPoller;
  /** Drops this instance's cached lists and tells the other instances to drop theirs. */
  changed(): Promise<void>;
  /** Plugs the comment counts into the ranking. */
  setCommentActivity(fn: CommentActivity): void;
}

export interface NewsPluginOptions {
  fetch?: SafeFetchOptions;
}

/** Browsers revalidate (the Refresh button must show new items at once); a 304 costs a header compare. */
const LIST_CACHE_CONTROL = 'public, no-cache';

/** A list as sent: also the answer plugins/memory-answers.ts gives before routing. */
interface CachedBody extends MemoryAnswer {
  etag: string;
}

function cachedBody(json: string): CachedBody {
  return { body: json, etag: `"${createHash('sha1').update(json).digest('base64url').slice(0, 20)}"`, cacheControl: LIST_CACHE_CONTROL };
}

const plugin: FastifyPluginAsyncZod<NewsPluginOptions> = async (app, opts) => {
  const { db } = app.database;
  const log = app.log.child({ module: 'news' });
  // A fetch that stored items drops the cached lists here and on the other instances.
  const poller = createNewsPoller({ database: app.database, config: app.config, fetchOptions: opts.fetch, log, onStored: () => void changed() });
  const closing = new AbortController();
  // Comment activity moves the ranking (docs/decisions/0017); tests may plug in their own counts.
  let commentActivity: CommentActivity = commentCountsSince;

  // Served from memory (docs/conventions.md "Public reads"): every visitor of / and /forum reads these.
  const newsChanges = new ChangeNotices(app, NEWS_CHANNEL);
  // A comment anywhere may lift an item: the ranking is computed again on the next read.
  const commentChanges = new ChangeNotices(app, COMMENTS_CHANNEL);
  const lists: CachedRead<void, CachedBody>[] = [];
  const dropCaches = () => lists.forEach((list) => list.drop());
  const changed = () => newsChanges.announce();
  app.decorate('news', {
    poller,
    changed,
    setCommentActivity(fn: CommentActivity) {
      commentActivity = fn;
      dropCaches();
    },
  } satisfies NewsFeature);

  const seeds = parseNewsFeeds(app.config.NEWS_FEEDS).map((f) => ({
    kind: f.kind,
    url: f.url,
    name: new URL(f.url).hostname.replace(/^www\./, ''),
    itemType: (f.kind === 'rss' ? 'rss' : 'news') as NewsItemType,
    priority: 0,
  }));
  await seedSourcesOnce(db, seeds);

  /**
   * A public list, cached for at most `ttlMs` and dropped by a change (`droppedBy`): a list in memory is
   * answered before routing (plugins/memory-answers.ts), otherwise the route loads it.
   */
  function serveList(url: string, summary: string, ttlMs: number, compute: () => Promise<unknown>, droppedBy: ChangeNotices[]): void {
    const list = new CachedRead<void, CachedBody>({ load: async () => cachedBody(JSON.stringify(await compute())), maxAgeMs: ttlMs, droppedBy });
    lists.push(list);
    const fromMemory = (_params: unknown, query: string) => (query === '' ? list.peek() : undefined);
    // The body is sent as cached (already serialised), so the reply is not typed by the response schema.
    const handler = async (req: { headers: Record<string, string | string[] | undefined> }, reply: FastifyReply) => {
      const entry = await list.get();
      reply.header('cache-control', LIST_CACHE_CONTROL).header('etag', entry.etag);
      if (req.headers['if-none-match'] === entry.etag) return reply.code(304).send();
      return reply.type('application/json; charset=utf-8').send(entry.body);
    };
    app.get(url, { config: { access: access.public, sharedAnswer: true, fromMemory }, schema: { summary, response: { 200: newsListSchema } } }, handler);
  }

  // Lists change only through a poll or an admin (both NOTIFY); the TTL only bounds a missed notification.
  serveList(
    '/api/rss/latest',
    'The latest items of the RSS sources',
    15 * MINUTE_MS,
    async () => (await latestItems(db, 'rss', NEWS_LIST_MAX)).map(toNewsItem),
    [newsChanges],
  );
  serveList(
    '/api/crawler/all',
    'The latest items of the web sources',
    20 * MINUTE_MS,
    async () => (await latestItems(db, 'web', NEWS_LIST_MAX)).map(toNewsItem),
    [newsChanges],
  );
  serveList(
    '/api/articles/prioritized',
    'News, events and releases, most relevant first',
    PRIORITIZED_TTL_MS,
    async () => {
      const now = Date.now();
      const pool = await rankingCandidates(db, RANKING_POOL);
      const comments = await commentActivity(
        db,
        pool.map((i) => i.id),
        new Date(now - RANKING.commentWindowMs),
      );
      return rankItems(pool, comments, now).slice(0, NEWS_LIST_MAX).map(toNewsItem);
    },
    [newsChanges, commentChanges],
  );

  app.post(
    '/api/news/refresh',
    {
      // The news panel's Refresh: anyone may press it; it is rate-limited, only queues the due sources
      // (a working source fetched in the last minute is not due, a failing one waits out its backoff)
      // and answers at once: the fetches run in the background (docs/decisions/0024).
      config: { access: access.public },
      schema: { summary: 'Ask for the due news sources to be read again', body: z.object({}).strict().nullish(), response: { 200: newsRefreshResultSchema } },
    },
    async (req): Promise<NewsRefreshResult> => {
      await enforceRateLimit(db, req, RATE_RULES.newsRefresh);
      return { queued: await poller.poll('refresh') };
    },
  );

  await app.register(newsSourcesRoutes);
  await app.register(forumRoutes);

  let timer: NodeJS.Timeout | undefined;
  let firstPoll: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    if (!app.config.backgroundJobs) return;
    const scheduled = () => {
      if (closing.signal.aborted) return;
      poller.poll('scheduled').catch((err: unknown) => app.log.error({ err }, 'news poll failed'));
    };
    // Fractions of a minute are allowed (tests); never more often than every 5 seconds.
    timer = setInterval(scheduled, Math.max(5 * SECOND_MS, app.config.NEWS_POLL_MIN * MINUTE_MS));
    timer.unref();
    // New sources (NEWS_FEEDS on a first start) are fetched soon after start, off the start-up path.
    firstPoll = setTimeout(scheduled, 2 * SECOND_MS);
    firstPoll.unref();
  });
  app.addHook('preClose', async () => {
    if (timer) clearInterval(timer);
    if (firstPoll) clearTimeout(firstPoll);
    closing.abort();
    await poller.stop();
  });
};

export const newsPlugin = fp(plugin, { name: 'news' });
