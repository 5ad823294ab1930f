import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminStatsSchema,
  adminUserListSchema,
  adminUserSchema,
  adminUsersQuerySchema,
  BULK_IMPORT_MAX_BYTES,
  bulkImportRequestSchema,
  bulkImportResultSchema,
  createAdminUserSchema,
  downloadStatsSchema,
  DUPLICATE_EMAIL,
  EMAIL_PATTERN,
  INVALID_EMAIL,
  REQUIRED_EMAIL_USERNAME,
  storageStatusSchema,
  systemStatusSchema,
  TOTAL_COUNT_HEADER,
  UNFILTERED_COUNT_HEADER,
  updateAdminUserSchema,
} from '../../../contracts/admin';
import { AUTH_MESSAGES, messageSchema } from '../../../contracts/auth';
import { users, type UserRow } from '../../db/schema';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors';
import { access } from '../../plugins/access';
import { keepAnotherAdmin } from '../auth/admin-auth-routes';
import { deleteUserSessions } from '../auth/session-store';
import { importRows, parseImportCsv } from './bulk-import';
import { createDashboard } from './dashboard';
import { parseExpiryDate } from './dates';
import { findUserById, findUserIdByEmail, isUniqueViolation, listUsers, toAdminUser } from './users-repository';

const DAY_MS = 24 * 3600 * 1000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NAME_MAX = 100;

/** Email and username as the spec's create/edit forms check them (spec §5), with its messages. */
function checkIdentity(emailIn: string, usernameIn: string): { email: string; username: string } {
  const email = emailIn.trim().toLowerCase();
  const username = usernameIn.trim();
  if (!email || !username) throw badRequest(REQUIRED_EMAIL_USERNAME, 'required_fields');
  if (!EMAIL_PATTERN.test(email) || email.length > 320) throw badRequest(INVALID_EMAIL, 'invalid_email');
  if (username.length > NAME_MAX) throw badRequest(`Username must be at most ${NAME_MAX} characters`, 'invalid_username');
  return { email, username };
}

const emptyToNull = (v: string | null | undefined) => (v ? v : null);

/** Admin users API, bulk import and the dashboard's figures (spec §2, §3, §7). Every route is admin-only. */
export const adminRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const dashboard = createDashboard(app.database, app.config);
  const admin = { access: access.admin };

  app.get(
    '/api/admin/users',
    { config: admin, schema: { querystring: adminUsersQuerySchema, response: { 200: adminUserListSchema } } },
    async (req, reply) => {
      const q = req.query;
      const page = await listUsers(db, { search: q.search, tier: q.tier, status: q.status }, q.limit, q.offset);
      reply.header(TOTAL_COUNT_HEADER, String(page.total)).header(UNFILTERED_COUNT_HEADER, String(page.unfiltered));
      reply.header('cache-control', 'no-store');
      return page.rows.map(toAdminUser);
    },
  );

  app.post(
    '/api/admin/users',
    { config: admin, schema: { body: createAdminUserSchema, response: { 201: adminUserSchema } } },
    async (req, reply) => {
      const b = req.body;
      const { email, username } = checkIdentity(b.email, b.username);
      if (await findUserIdByEmail(db, email)) throw conflict(DUPLICATE_EMAIL, 'duplicate_email');
      let row: UserRow | undefined;
      try {
        [row] = await db
          .insert(users)
          .values({
            email,
            username,
            firstName: emptyToNull(b.firstName),
            lastName: emptyToNull(b.lastName),
            subscriptionTier: b.subscriptionTier,
            subscriptionStatus: b.subscriptionStatus,
            subscriptionSource: b.subscriptionSource,
            subscriptionExpiry: b.expiryDays > 0 ? new Date(Date.now() + b.expiryDays * DAY_MS) : null,
            pledgeAmountCents: Math.round(b.pledgeAmount * 100),
            isAdmin: b.isAdmin,
          })
          .returning();
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict(DUPLICATE_EMAIL, 'duplicate_email');
        throw err;
      }
      if (!row) throw new Error('user insert returned nothing');
      return reply.status(201).send(toAdminUser(row));
    },
  );

  app.put(
    '/api/admin/users/:id',
    {
      config: admin,
      schema: { params: z.object({ id: z.string().max(100) }), body: updateAdminUserSchema, response: { 200: adminUserSchema } },
    },
    async (req) => {
      const { id } = req.params;
      const b = req.body;
      const existing = UUID.test(id) ? await findUserById(db, id) : null;
      if (!existing) throw notFound('User not found', 'user_not_found');
      const { email, username } = checkIdentity(b.email, b.username);
      let expiry: Date | null = null;
      if (b.subscriptionExpiry) {
        const parsed = parseExpiryDate(b.subscriptionExpiry);
        if (!parsed) throw badRequest('Expiry must be a date (YYYY-MM-DD) or empty for no expiry', 'invalid_expiry');
        expiry = parsed;
      }
      if (req.user?.id === id && !b.isAdmin) {
        throw badRequest('You cannot remove your own admin rights', 'self_demotion');
      }
      if (email !== existing.email) {
        const other = await findUserIdByEmail(db, email);
        if (other && other !== id) throw conflict(DUPLICATE_EMAIL, 'duplicate_email');
      }
      try {
        return await db.transaction(async (tx) => {
          if (existing.isAdmin && !b.isAdmin) await keepAnotherAdmin(tx, id, req.user?.id ?? '');
          const [row] = await tx
            .update(users)
            .set({
              email,
              username,
              firstName: emptyToNull(b.firstName),
              lastName: emptyToNull(b.lastName),
              subscriptionTier: b.subscriptionTier,
              subscriptionStatus: b.subscriptionStatus,
              subscriptionExpiry: expiry,
              subscriptionSource: b.subscriptionSource,
              pledgeAmountCents: b.pledgeAmount,
              isAdmin: b.isAdmin,
              // An email an admin sets counts as verified (ADR 0013).
              ...(email !== existing.email ? { emailVerifiedAt: new Date() } : {}),
              updatedAt: new Date(),
            })
            .where(eq(users.id, id))
            .returning();
          if (!row) throw notFound('User not found', 'user_not_found');
          // Sessions opened under the old email or with admin rights end with them.
          if (email !== existing.email || (existing.isAdmin && !b.isAdmin)) await deleteUserSessions(tx, id);
          return toAdminUser(row);
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict(DUPLICATE_EMAIL, 'duplicate_email');
        throw err;
      }
    },
  );

  // Signs a member out everywhere (a lost phone, a shared computer, a suspected takeover).
  app.post(
    '/api/admin/users/:id/sessions/revoke',
    { config: admin, schema: { params: z.object({ id: z.string().max(100) }), response: { 200: messageSchema } } },
    async (req) => {
      const { id } = req.params;
      const existing = UUID.test(id) ? await findUserById(db, id) : null;
      if (!existing) throw notFound('User not found', 'user_not_found');
      await deleteUserSessions(db, id);
      req.log.info({ userId: id, by: req.user?.id }, 'member signed out everywhere by an admin');
      return { message: AUTH_MESSAGES.sessionsRevoked };
    },
  );

  app.post(
    '/api/admin/bulk-import',
    {
      config: admin,
      // 10,000 rows of the spec's columns are ~1 MB; room for long names and 50,000 rows.
      bodyLimit: BULK_IMPORT_MAX_BYTES + 64 * 1024,
      schema: { body: bulkImportRequestSchema, response: { 200: bulkImportResultSchema } },
    },
    async (req) => {
      const parsed = parseImportCsv(req.body.csvContent);
      try {
        return await importRows(db, parsed);
      } catch (err) {
        // Another request created one of these emails between our read and our insert.
        if (isUniqueViolation(err)) throw new AppError(409, 'import_conflict', 'Import failed: a member in the file was created meanwhile; nothing was imported, please try again');
        throw err;
      }
    },
  );

  app.get('/api/admin/stats', { config: admin, schema: { response: { 200: adminStatsSchema } } }, async (_req, reply) => {
    reply.header('cache-control', 'no-store');
    return dashboard.stats();
  });

  app.get('/api/admin/system-status', { config: admin, schema: { response: { 200: systemStatusSchema } } }, async (_req, reply) => {
    reply.header('cache-control', 'no-store');
    return dashboard.systemStatus();
  });

  app.get('/api/admin/download-stats', { config: admin, schema: { response: { 200: downloadStatsSchema } } }, async (_req, reply) => {
    reply.header('cache-control', 'no-store');
    return { today: await dashboard.downloadsToday() };
  });

  app.get('/api/admin/storage-status', { config: admin, schema: { response: { 200: storageStatusSchema } } }, async (_req, reply) => {
    reply.header('cache-control', 'no-store');
    return dashboard.storage();
  });
};
