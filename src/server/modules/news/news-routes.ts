import { createHash } from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { NEWS_LIST_MAX, newsListSchema, newsRefreshResultSchema, type NewsItem, type NewsRefreshResult } from '../../../contracts/news';
import { MINUTE_MS } from '../../../contracts/time';
import { CachedRead, type ChangeNotices } from '../../lib/cached-read';
import { enforceRateLimit, RATE_RULES } from '../../lib/rate-limit';
import { access } from '../../plugins/access';
import { sendAnswer, type MemoryAnswer } from '../../plugins/memory-answers';
import type { News } from './news';
import { rankItems, RANKING } from './news-ranking';
import { latestItems, rankingCandidates } from './news-repository';
import { toNewsItem } from './news-views';

/** The prioritized order ages with the clock: even without a change it is recomputed this often. */
const PRIORITIZED_TTL_MS = 5 * MINUTE_MS;
/** Items the ranking chooses from (the newest of every tab). */
const RANKING_POOL = 200;

/** Browsers revalidate (the Refresh button must show new items at once); a 304 costs a header compare. */
const LIST_CACHE_CONTROL = 'public, no-cache';

/** A list as sent: also the answer plugins/memory-answers.ts gives before routing. */
interface CachedBody extends MemoryAnswer {
  etag: string;
}

function cachedBody(json: string): CachedBody {
  return { body: json, etag: `"${createHash('sha1').update(json).digest('base64url').slice(0, 20)}"`, cacheControl: LIST_CACHE_CONTROL };
}

/** The public news lists (served from memory, docs/conventions.md "Public reads") and the Refresh button's call. */
const routes: FastifyPluginAsyncZod<{ news: News }> = async (app, { news }) => {
  const { db } = app.database;
  const { poller, changes: newsChanges, commentChanges, lists } = news;

  /**
   * A public list, cached for at most `ttlMs` and dropped by a change (`droppedBy`): a list in memory is
   * answered before routing (plugins/memory-answers.ts), otherwise the route loads it.
   */
  function serveList(url: string, summary: string, ttlMs: number, compute: () => Promise<unknown>, droppedBy: ChangeNotices[]): void {
    const list = new CachedRead<void, CachedBody>({ load: async () => cachedBody(JSON.stringify(await compute())), maxAgeMs: ttlMs, droppedBy });
    lists.push(list);
    const fromMemory = (_params: unknown, query: string) => (query === '' ? list.peek() : undefined);
    app.get(
      url,
      { config: { access: access.public, sharedAnswer: true, fromMemory }, schema: { summary, response: { 200: newsListSchema } } },
      async (req, reply) => sendAnswer<NewsItem[]>(req, reply, await list.get()),
    );
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
      const comments = await news.commentActivity(
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
};

export const newsRoutes = fp(routes, { name: 'news-routes' });
