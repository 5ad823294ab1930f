import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AUTH_MESSAGES,
  adminSetupBodySchema,
  authReplySchema,
  loginBodySchema,
  sessionDebugReplySchema,
  setupNeededReplySchema,
} from '../../../contracts/auth';
import { xactLock } from '../../db/advisory-locks';
import type { UserRow } from '../../db/schema';
import { conflict } from '../../lib/errors';
import { access } from '../../plugins/access';
import { hashPassword } from './passwords';
import { passwordSignIn } from './password-sign-in';
import { enforceRateLimit, RATE_RULES } from '../../lib/rate-limit';
import { countActiveSessions, findSession, SESSION_COOKIE } from '../../lib/sessions';
import { toAuthUser } from '../members/member-views';
import { adminExists, findMemberByEmail, insertMember, recordLogin } from '../members/members-repository';

/** First-admin setup, admin sign-in (password required, docs/decisions/0007-accounts-sign-in-and-rate-limits.md) and the session check. */
export const adminAuthRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;

  app.get(
    '/api/admin/setup-needed',
    { config: { access: access.public }, schema: { response: { 200: setupNeededReplySchema } } },
    async (_req, reply) => {
      reply.header('cache-control', 'no-store');
      return { setupNeeded: !(await adminExists(db)) };
    },
  );

  app.post(
    '/api/admin/setup',
    { config: { access: access.public }, schema: { body: adminSetupBodySchema, response: { 201: authReplySchema } } },
    async (req, reply) => {
      const { email, username, password } = req.body;
      await enforceRateLimit(db, req, RATE_RULES.adminSetup);
      if (await adminExists(db)) throw conflict(AUTH_MESSAGES.setupNotNeeded, 'setup_done');
      const passwordHash = await hashPassword(password);
      const admin = await db.transaction(async (tx): Promise<UserRow> => {
        // Serialises first-admin creation across instances.
        await tx.execute(xactLock('firstAdminSetup'));
        if (await adminExists(tx)) throw conflict(AUTH_MESSAGES.setupNotNeeded, 'setup_done');
        // Taking over an existing member's account here would skip proof of its email; the CLI can promote one.
        if (await findMemberByEmail(tx, email)) {
          throw conflict('A member account already uses this email. Use another email, or promote it with `npm run admin`.', 'email_taken');
        }
        return insertMember(tx, { email, username, passwordHash, isAdmin: true, subscriptionStatus: 'active' });
      });
      await reply.signIn(admin.id);
      await recordLogin(db, admin.id);
      return reply.status(201).send({ message: AUTH_MESSAGES.setupDone, user: toAuthUser(admin) });
    },
  );

  app.post(
    '/api/admin/signin',
    { config: { access: access.public }, schema: { body: loginBodySchema, response: { 200: authReplySchema } } },
    async (req, reply) => passwordSignIn(db, req, reply, req.body, { requireAdmin: true }),
  );

  app.get(
    '/api/admin/session-debug',
    { config: { access: access.admin }, schema: { response: { 200: sessionDebugReplySchema } } },
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
        cookie: { name: SESSION_COOKIE, httpOnly: true, sameSite: 'lax', secure: app.config.secureCookies },
        serverTime: new Date().toISOString(),
      };
    },
  );
};
