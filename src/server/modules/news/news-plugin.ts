import fp from 'fastify-plugin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { NewsItemType } from '../../../contracts/news';
import { MINUTE_MS, SECOND_MS } from '../../../contracts/time';
import { parseNewsFeeds } from '../../config';
import { seedSourcesOnce } from './news-repository';
import { newsRoutes } from './news-routes';
import type { News } from './news';
import { forumRoutes } from './forum-routes';
import { newsSourcesRoutes } from './news-sources-routes';

const plugin: FastifyPluginAsyncZod<{ news: News }> = async (app, { news }) => {
  const { db } = app.database;
  const { poller } = news;
  const closing = new AbortController();

  const seeds = parseNewsFeeds(app.config.NEWS_FEEDS).map((f) => ({
    kind: f.kind,
    url: f.url,
    name: new URL(f.url).hostname.replace(/^www\./, ''),
    itemType: (f.kind === 'rss' ? 'rss' : 'news') as NewsItemType,
    priority: 0,
  }));
  await seedSourcesOnce(db, seeds);

  await app.register(newsRoutes, { news });
  await app.register(newsSourcesRoutes, { news });
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
