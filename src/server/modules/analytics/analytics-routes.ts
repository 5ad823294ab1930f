import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { rebuildBodySchema, summaryQuerySchema, summarySchema } from '../../../contracts/analytics';
import { access } from '../../plugins/access';
import { noContentReply } from '../../plugins/reply-schemas';
import { runInBackground } from '../../db/lanes';
import { rebuildDay } from './rollups-service';
import { monthSummary } from './summary-service';

/** The analytics reads and the rebuild of a past day: admins only, every answer fresh (no-store). */
export const analyticsRoutes: FastifyPluginAsyncZod = async (app) => {
  const admin = { access: access.admin };

  app.get(
    '/api/admin/analytics/summary',
    { config: admin, schema: { summary: "A month's figures against the month before", querystring: summaryQuerySchema, response: { 200: summarySchema } } },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return monthSummary(app.database.db, req.query.month);
    },
  );

  app.post(
    '/api/admin/analytics/rebuild',
    { config: admin, schema: { summary: "Rebuilds a past day's rollups from its sessions", body: rebuildBodySchema, response: { 204: noContentReply } } },
    async (req, reply) => {
      // A rebuild is a job an operator starts: background lane, so no listener waits on it (ADR 0034).
      await runInBackground(() => rebuildDay(app.database.db, req.body.day));
      return reply.status(204).send();
    },
  );
};
