import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AUTH_MESSAGES,
  adminSetupBodySchema,
  authReplySchema,
  loginBodySchema,
  sessionDebugReplySchema,
  setupNeededReplySchema,
} from '../../../contracts/auth';
import type { UserRow } from '../../db/schema';
import { conflict, forbidden } from '../../lib/errors';
import { access } from '../../plugins/access';
import { hashPassword } from './passwords';
import { passwordSignIn } from './password-sign-in';
import { enforceRateLimit, RATE_RULES } from '../../lib/rate-limit';
import { countActiveSessions, findSession, sessionCookieName } from '../../lib/sessions';
import { createSetupTokenGate } from './setup-token';
import { toAuthUser } from '../members/member-views';
import { adminExists, recordLogin } from '../members/members-repository';
import { createFirstAdmin } from './admin-setup-service';

/** First-admin setup, admin sign-in (password required, docs/decisions/0007-accounts-sign-in-and-rate-limits.md) and the session check. */
export const adminAuthRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const setupToken = createSetupTokenGate({ envToken: app.config.ADMIN_SETUP_TOKEN, adminExists: await adminExists(db), log: app.log });

  app.get(
    '/api/admin/setup-needed',
    { config: { access: access.public }, schema: { summary: 'Whether the first admin still has to be set up', response: { 200: setupNeededReplySchema } } },
    async (_req, reply) => {
      reply.header('cache-control', 'no-store');
      return { setupNeeded: !(await adminExists(db)) };
    },
  );

  app.post(
    '/api/admin/setup',
    { config: { access: access.public }, schema: { summary: 'Set up the first admin', body: adminSetupBodySchema, response: { 201: authReplySchema } } },
    async (req, reply) => {
      const { email, username, password } = req.body;
      await enforceRateLimit(db, req, RATE_RULES.adminSetup);
      if (await adminExists(db)) throw conflict(AUTH_MESSAGES.setupNotNeeded, 'setup_done');
      if (!setupToken.matches(req.body.setupToken)) throw forbidden(AUTH_MESSAGES.setupTokenInvalid, 'setup_token_invalid');
      const passwordHash = await hashPassword(password);
      const admin = await createFirstAdmin(db, { email, username, passwordHash });
      setupToken.spend();
      await reply.signIn(admin.id, { isAdmin: true });
      await recordLogin(db, admin.id);
      return reply.status(201).send({ message: AUTH_MESSAGES.setupDone, user: toAuthUser(admin) });
    },
  );

  app.post(
    '/api/admin/signin',
    { config: { access: access.public }, schema: { summary: 'Sign in as an admin', body: loginBodySchema, response: { 200: authReplySchema } } },
    async (req, reply) => passwordSignIn(db, req, reply, req.body, { requireAdmin: true }),
  );

  app.get(
    '/api/admin/session-debug',
    { config: { access: access.admin }, schema: { summary: 'The admin session, for debugging', response: { 200: sessionDebugReplySchema } } },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      const user = req.user as UserRow;
      const idHash = req.sessionIdHash ?? '';
      const [s, activeSessions] = await Promise.all([findSession(db, idHash), countActiveSessions(db, user.id)]);
      const iso = (d: Date | undefined) => (d ?? new Date()).toISOString();
      // No session id, hash or password hash: only what helps an operator see why a session works.
      return {
        authenticated: true,
        user: { id: user.id, email: user.email, username: user.username, isAdmin: user.isAdmin },
        session: {
          createdAt: iso(s?.createdAt),
          expiresAt: iso(s?.expiresAt),
          lastSeenAt: iso(s?.lastSeenAt),
          ip: s?.ip ?? null,
          userAgent: s?.userAgent ?? null,
        },
        activeSessions,
        cookie: { name: sessionCookieName(app.config.secureCookies), httpOnly: true, sameSite: 'lax', secure: app.config.secureCookies },
        serverTime: new Date().toISOString(),
      };
    },
  );
};
