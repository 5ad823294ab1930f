import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { access } from '../../plugins/access';
import { sendError } from '../../plugins/errors';

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/health',
    { config: { access: access.public }, schema: { response: { 200: z.object({ status: z.literal('ok') }) } } },
    async (req, reply) => {
      try {
        await app.database.ping();
      } catch (err) {
        req.log.warn({ err }, 'health check: database did not answer');
        return sendError(reply, 503, 'database_unavailable', 'The database is not answering');
      }
      reply.header('cache-control', 'no-store');
      return { status: 'ok' as const };
    },
  );
};
