import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AUTH_MESSAGES, assignTierBodySchema, authReplySchema } from '../../../contracts/auth';
import { access } from '../../plugins/access';
import { toAuthUser } from './member-views';
import { assignTier } from './members-service';

/** Quick assign: grants a tier by email, creating the member when the email is new. */
export const assignTierRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;

  app.post(
    '/api/admin/assign-tier',
    { config: { access: access.admin }, schema: { summary: 'Give a member a tier', body: assignTierBodySchema, response: { 200: authReplySchema } } },
    async (req) => {
      const { user, days } = await assignTier(db, req.body, req.user?.id ?? null);
      req.log.info({ userId: user.id, tier: user.subscriptionTier, days, by: req.user?.id }, 'tier assigned');
      return { message: AUTH_MESSAGES.tierAssigned, user: toAuthUser(user) };
    },
  );
};
