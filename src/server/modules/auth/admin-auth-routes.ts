import { and, count, eq, gt, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AUTH_MESSAGES,
  adminSetupBodySchema,
  authReplySchema,
  loginBodySchema,
  sessionDebugReplySchema,
  setupNeededReplySchema,
} from '../../../contracts/auth';
import type { Db } from '../../db/client';
import { sessions, users, type UserRow } from '../../db/schema';
import { conflict, forbidden } from '../../lib/errors';
import { access } from '../../plugins/access';
import { hashPassword } from './passwords';
import { passwordSignIn } from './password-sign-in';
import { enforceRateLimit, RATE_RULES } from '../../lib/rate-limit';
import { sessionCookieName } from './session-store';
import { createSetupTokenGate } from './setup-token';
import { findUserByEmail, insertUser, recordLogin, toAuthUser } from './users';

// Serialises every change that creates or removes an admin, across instances (a transaction-scoped
// advisory lock): first-admin setup, demotions and deletions.
const ADMINS_LOCK_ID = 724102;

export async function adminExists(db: Db): Promise<boolean> {
  const rows = await db.select({ id: users.id }).from(users).where(eq(users.isAdmin, true)).limit(1);
  return rows.length > 0;
}

/**
 * Call inside the transaction that demotes or deletes `userId`: waits for any other admin change, then
 * refuses when the actor lost its rights meanwhile or no other admin would remain. Two parallel
 * demotions thus cannot leave the radio without an admin.
 */
export async function keepAnotherAdmin(tx: Db, userId: string, actorId: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${ADMINS_LOCK_ID})`);
  const admins = await tx.select({ id: users.id }).from(users).where(eq(users.isAdmin, true));
  if (!admins.some((a) => a.id === actorId)) throw forbidden('Admin privileges required', 'admin_required');
  if (!admins.some((a) => a.id !== userId)) throw conflict(AUTH_MESSAGES.lastAdmin, 'last_admin');
}

/** First-admin setup, admin sign-in (password required, design.md §4) and the session check. */
export const adminAuthRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const setupToken = createSetupTokenGate({ envToken: app.config.ADMIN_SETUP_TOKEN, adminExists: await adminExists(db), log: app.log });

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
      if (!setupToken.matches(req.body.setupToken)) throw forbidden(AUTH_MESSAGES.setupTokenInvalid, 'setup_token_invalid');
      const passwordHash = await hashPassword(password);
      const admin = await db.transaction(async (tx): Promise<UserRow> => {
        await tx.execute(sql`SELECT pg_advisory_xact_lock(${ADMINS_LOCK_ID})`);
        if (await adminExists(tx)) throw conflict(AUTH_MESSAGES.setupNotNeeded, 'setup_done');
        // Taking over an existing member's account here would skip proof of its email; the CLI can promote one.
        if (await findUserByEmail(tx, email)) {
          throw conflict('A member account already uses this email. Use another email, or promote it with `npm run admin`.', 'email_taken');
        }
        return insertUser(tx, { email, username, passwordHash, isAdmin: true, subscriptionStatus: 'active' });
      });
      setupToken.spend();
      await reply.signIn(admin.id, { isAdmin: true });
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
      const rows = await db.select().from(sessions).where(eq(sessions.idHash, idHash)).limit(1);
      const [active] = await db
        .select({ n: count() })
        .from(sessions)
        .where(and(eq(sessions.userId, user.id), gt(sessions.expiresAt, new Date())));
      const s = rows[0];
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
        activeSessions: Number(active?.n ?? 0),
        cookie: { name: sessionCookieName(app.config.secureCookies), httpOnly: true, sameSite: 'lax', secure: app.config.secureCookies },
        serverTime: new Date().toISOString(),
      };
    },
  );
};
