import type { News } from './news';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  createNewsSourceSchema,
  NEWS_MESSAGES,
  newsSourceListSchema,
  newsSourceParamsSchema,
  newsSourceSchema,
  updateNewsSourceSchema,
  type NewsSource,
} from '../../../contracts/news';
import { conflict, notFound } from '../../lib/errors';
import { access } from '../../plugins/access';
import { createSource, DuplicateSourceError, findSource, listSources, removeSource, resumeSource, updateSource } from './news-repository';
import { toNewsSource } from './news-views';
import { noContentReply } from '../../plugins/reply-schemas';

/** The admin's news sources page: list, add, pause, edit, remove, fetch now, resume. */
export const newsSourcesRoutes: FastifyPluginAsyncZod<{ news: News }> = async (app, { news }) => {
  const { db } = app.database;
  const adminOnly = { config: { access: access.admin } } as const;

  async function sourceView(id: string): Promise<NewsSource> {
    const row = (await listSources(db)).find((s) => s.id === id);
    if (!row) throw notFound(NEWS_MESSAGES.sourceNotFound);
    return toNewsSource(row);
  }

  app.get(
    '/api/admin/news-sources',
    { ...adminOnly, schema: { summary: 'The news sources and their last fetch', response: { 200: newsSourceListSchema } } },
    async (_req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return (await listSources(db)).map(toNewsSource);
    },
  );

  app.post(
    '/api/admin/news-sources',
    { ...adminOnly, schema: { summary: 'Add a news source', body: createNewsSourceSchema, response: { 201: newsSourceSchema } } },
    async (req, reply) => {
      const b = req.body;
      let row;
      try {
        row = await createSource(db, {
          kind: b.kind,
          name: b.name,
          url: b.url,
          itemType: b.itemType ?? (b.kind === 'rss' ? 'rss' : 'news'),
          priority: b.priority,
        });
      } catch (err) {
        if (err instanceof DuplicateSourceError) throw conflict(NEWS_MESSAGES.duplicateSource, 'duplicate_source');
        throw err;
      }
      req.log.info({ source: row.id, url: row.url, by: req.user?.id }, 'news source added');
      // Fetched at once, so the admin sees at once whether the address works.
      const outcome = await news.poller.fetchSource(row);
      if (outcome.added > 0) await news.changed();
      return reply.status(201).send(await sourceView(row.id));
    },
  );

  app.patch(
    '/api/admin/news-sources/:id',
    {
      ...adminOnly,
      schema: { summary: 'Edit a news source', params: newsSourceParamsSchema, body: updateNewsSourceSchema, response: { 200: newsSourceSchema } },
    },
    async (req) => {
      const row = await updateSource(db, req.params.id, req.body);
      if (!row) throw notFound(NEWS_MESSAGES.sourceNotFound);
      await news.changed();
      return sourceView(row.id);
    },
  );

  app.delete(
    '/api/admin/news-sources/:id',
    { ...adminOnly, schema: { summary: 'Remove a news source', params: newsSourceParamsSchema, response: { 204: noContentReply } } },
    async (req, reply) => {
      if (!(await removeSource(db, req.params.id))) throw notFound(NEWS_MESSAGES.sourceNotFound);
      req.log.info({ source: req.params.id, by: req.user?.id }, 'news source removed');
      await news.changed();
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/admin/news-sources/:id/fetch',
    { ...adminOnly, schema: { summary: 'Fetch a news source now', params: newsSourceParamsSchema, response: { 200: newsSourceSchema } } },
    async (req) => {
      const row = await findSource(db, req.params.id);
      if (!row) throw notFound(NEWS_MESSAGES.sourceNotFound);
      const outcome = await news.poller.fetchSource(row);
      if (outcome.added > 0) await news.changed();
      return sourceView(row.id);
    },
  );

  app.post(
    '/api/admin/news-sources/:id/resume',
    { ...adminOnly, schema: { summary: 'Resume a paused news source', params: newsSourceParamsSchema, response: { 200: newsSourceSchema } } },
    async (req) => {
      // Paused by an admin or by 7 days of failures: its failures are forgotten and it is queued now.
      const row = await resumeSource(db, req.params.id);
      if (!row) {
        if (!(await findSource(db, req.params.id))) throw notFound(NEWS_MESSAGES.sourceNotFound);
        throw conflict(NEWS_MESSAGES.notPaused, 'not_paused');
      }
      req.log.info({ source: row.id, by: req.user?.id }, 'news source resumed');
      news.poller.enqueue([row]);
      return sourceView(row.id);
    },
  );
};
