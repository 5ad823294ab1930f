import type { NowPlaying } from '../radio/now-playing';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminStatsSchema, downloadStatsSchema, storageStatusSchema, systemStatusSchema } from '../../../contracts/admin';
import { access } from '../../plugins/access';
import { createDashboard } from './dashboard-service';

/** The admin dashboard's figures and statuses; every answer is fresh (no-store). */
export const dashboardRoutes: FastifyPluginAsyncZod<{ nowPlaying: NowPlaying }> = async (app, { nowPlaying }) => {
  const dashboard = createDashboard(app.database, app.config, app.mediaStorage, (channel) => nowPlaying.titleReadersOn(channel));
  const admin = { access: access.admin };

  app.get('/api/admin/stats', { config: admin, schema: { summary: "The dashboard's figures", response: { 200: adminStatsSchema } } }, async (_req, reply) => {
    reply.header('cache-control', 'no-store');
    return dashboard.stats();
  });

  app.get(
    '/api/admin/system-status',
    { config: admin, schema: { summary: "The channels', platforms' and services' status", response: { 200: systemStatusSchema } } },
    async (_req, reply) => {
      reply.header('cache-control', 'no-store');
      return dashboard.systemStatus();
    },
  );

  app.get(
    '/api/admin/download-stats',
    { config: admin, schema: { summary: "Today's mix downloads", response: { 200: downloadStatsSchema } } },
    async (_req, reply) => {
      reply.header('cache-control', 'no-store');
      return { today: await dashboard.downloadsToday() };
    },
  );

  app.get(
    '/api/admin/storage-status',
    { config: admin, schema: { summary: "The media storage's status", response: { 200: storageStatusSchema } } },
    async (_req, reply) => {
      reply.header('cache-control', 'no-store');
      return dashboard.storage();
    },
  );
};
