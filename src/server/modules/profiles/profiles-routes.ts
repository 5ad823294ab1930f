import fp from 'fastify-plugin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { followResultSchema, profileSchema, updateProfileSchema, userIdParamsSchema } from '../../../contracts/community';
import type { UserRow } from '../../db/schema';
import { unauthorized } from '../../lib/errors';
import { enforceRateLimit, RATE_RULES } from '../../lib/rate-limit';
import { access } from '../../plugins/access';
import { imageUploadRoutes } from './image-upload-routes';
import { readProfile, setFollowing, updateProfile } from './profiles-service';

/** Member profiles and following. */
const routes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const signedIn = (user: UserRow | null): UserRow => {
    if (!user) throw unauthorized();
    return user;
  };

  app.get(
    '/api/users/:id/profile',
    // Public route; what it answers depends on who asks (visibility), so never stored by a shared cache.
    { config: { access: access.public }, schema: { summary: "A member's public profile", params: userIdParamsSchema, response: { 200: profileSchema } } },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return readProfile(db, req.params.id, req.user);
    },
  );

  app.patch(
    '/api/users/:id/profile',
    {
      config: { access: access.member },
      schema: { summary: 'Change my profile', params: userIdParamsSchema, body: updateProfileSchema, response: { 200: profileSchema } },
    },
    async (req) => updateProfile(db, req.params.id, signedIn(req.user), req.body),
  );

  for (const follow of [true, false]) {
    app.post(
      `/api/users/:id/${follow ? 'follow' : 'unfollow'}`,
      {
        config: { access: access.member },
        schema: { summary: follow ? 'Follow a member' : 'Stop following a member', params: userIdParamsSchema, response: { 200: followResultSchema } },
      },
      async (req) => {
        await enforceRateLimit(db, req, RATE_RULES.follow);
        return setFollowing(db, signedIn(req.user), req.params.id, follow);
      },
    );
  }

  await app.register(imageUploadRoutes);
};

export const profilesRoutes = fp(routes, { name: 'profiles' });
