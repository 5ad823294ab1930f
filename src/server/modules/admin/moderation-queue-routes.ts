import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { moderationQueueSchema } from '../../../contracts/community';
import { access } from '../../plugins/access';
import { moderationQueue } from './moderation-queue-service';

/** GET /api/admin/moderation/queue: everything held, comments and forum threads (admin only). */
export const moderationQueueRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  app.get(
    '/api/admin/moderation/queue',
    { config: { access: access.admin }, schema: { summary: 'Everything waiting for moderation', response: { 200: moderationQueueSchema } } },
    async (_req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return moderationQueue(db);
    },
  );
};
