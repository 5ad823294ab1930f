import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AUTH_MESSAGES, assignTierBodySchema, authReplySchema, emailSchema } from '../../../contracts/auth';
import { TIER_LABEL, parseTier } from '../../../contracts/tiers';
import { users } from '../../db/schema';
import { badRequest } from '../../lib/errors';
import { access } from '../../plugins/access';
import { toAuthUser, usernameFromEmail } from '../auth/users';

const MAX_EXPIRY_DAYS = 36_500;

/** Quick assign (spec §5): grants a tier by email, creating the member when the email is new. */
export const assignTierRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;

  app.post(
    '/api/admin/assign-tier',
    { config: { access: access.admin }, schema: { body: assignTierBodySchema, response: { 200: authReplySchema } } },
    async (req) => {
      const body = req.body;
      if (!body.email.trim() || !body.tier.trim()) throw badRequest(AUTH_MESSAGES.quickAssignRequired, 'missing_fields');
      const parsedEmail = emailSchema.safeParse(body.email);
      if (!parsedEmail.success) throw badRequest(AUTH_MESSAGES.invalidEmail, 'invalid_email');
      const email = parsedEmail.data;
      const tier = parseTier(body.tier);
      if (!tier) {
        const names = Object.values(TIER_LABEL).join(', ');
        throw badRequest(`Invalid tier '${body.tier.trim()}'. Choose one of ${names}.`, 'invalid_tier');
      }
      // Empty means 0, and 0 means no expiry (spec §5).
      const rawDays = typeof body.expiryDays === 'string' ? body.expiryDays.trim() : body.expiryDays;
      const days = rawDays === undefined || rawDays === '' ? 0 : Number(rawDays);
      if (!Number.isInteger(days) || days < 0 || days > MAX_EXPIRY_DAYS) {
        throw badRequest(`Expiry days must be a whole number from 0 to ${MAX_EXPIRY_DAYS}`, 'invalid_expiry');
      }
      const expiry = days === 0 ? null : new Date(Date.now() + days * 24 * 3600 * 1000);
      const username = body.username?.trim() || undefined;
      const grant = {
        subscriptionTier: tier,
        subscriptionStatus: 'active' as const,
        subscriptionSource: 'admin' as const,
        subscriptionExpiry: expiry,
        updatedAt: new Date(),
      };
      // One statement whether or not the member exists, so two admins at once cannot create duplicates.
      const rows = await db
        .insert(users)
        .values({ email, username: username ?? usernameFromEmail(email), ...grant })
        // The admin vouches for the email: an unverified account is verified by the assignment (ADR 0013).
        .onConflictDoUpdate({
          target: users.email,
          set: { ...grant, emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())`, ...(username ? { username } : {}) },
        })
        .returning();
      const user = rows[0];
      if (!user) throw new Error('assign-tier upsert returned nothing');
      req.log.info({ userId: user.id, tier, days, by: req.user?.id }, 'tier assigned');
      return { message: AUTH_MESSAGES.tierAssigned, user: toAuthUser(user) };
    },
  );
};
