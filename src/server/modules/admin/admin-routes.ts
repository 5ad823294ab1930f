import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminUserListSchema,
  adminUserSchema,
  adminUsersExportQuerySchema,
  adminUsersQuerySchema,
  BULK_IMPORT_MAX_BYTES,
  bulkImportRequestSchema,
  bulkImportResultSchema,
  bulkRunQuerySchema,
  createAdminUserSchema,
  SEARCH_COUNT_CAP,
  TOTAL_CAPPED_HEADER,
  TOTAL_COUNT_HEADER,
  UNFILTERED_COUNT_HEADER,
  updateAdminUserSchema,
} from '../../../contracts/admin';
import { AUTH_MESSAGES, messageSchema } from '../../../contracts/auth';
import { AppError } from '../../lib/errors';
import { access } from '../../plugins/access';
import { importRows, parseImportCsv } from './bulk-import-service';
import { membersCsvStream } from './members-export-service';
import { dublinDate } from '../../lib/dates';
import { toAdminUser } from '../members/member-views';
import { EmailTakenError, listMembers } from '../members/members-repository';
import { createMemberAsAdmin, editMemberAsAdmin, endMemberSessions } from '../members/members-service';
import { mediaReply } from '../../plugins/reply-schemas';
import { textField } from '../../../contracts/text-field';

/** The export's reply: a stream of CSV text (Fastify pipes streams as they are, never through the serializer). */

/** Admin users API and bulk import (the dashboard's figures: dashboard-routes.ts) (docs/decisions/0006-platform-subscriptions-and-members-admin.md). Every route is admin-only. */
export const adminRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const admin = { access: access.admin };

  // Every member matching the list's filters, streamed as CSV (the bulk import's columns first, so it can be read back).
  app.get(
    '/api/admin/users/export.csv',
    {
      config: admin,
      schema: {
        summary: 'Export the members as CSV',
        querystring: adminUsersExportQuerySchema,
        response: { 200: mediaReply('text/csv', 'Every member matching the filters, as CSV (the bulk import reads it back).') },
      },
    },
    async (req, reply) => {
      const { search, tier, status, access, effectiveTier, pledgeBand, bom } = req.query;
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="dhr-members-${dublinDate(new Date())}.csv"`)
        .header('cache-control', 'no-store')
        .send(membersCsvStream(db, { search, tier, status, access, effectiveTier, pledgeBand }, bom === 'true'));
    },
  );

  app.get(
    '/api/admin/users',
    { config: admin, schema: { summary: 'List and search the members', querystring: adminUsersQuerySchema, response: { 200: adminUserListSchema } } },
    async (req, reply) => {
      const q = req.query;
      const filters = { search: q.search, tier: q.tier, status: q.status, access: q.access, effectiveTier: q.effectiveTier, pledgeBand: q.pledgeBand };
      const page = await listMembers(db, filters, q.limit, q.offset, SEARCH_COUNT_CAP);
      reply.header(TOTAL_COUNT_HEADER, String(page.total)).header(UNFILTERED_COUNT_HEADER, String(page.unfiltered));
      if (page.capped) reply.header(TOTAL_CAPPED_HEADER, 'true');
      reply.header('cache-control', 'no-store');
      return page.rows.map(toAdminUser);
    },
  );

  app.post(
    '/api/admin/users',
    { config: admin, schema: { summary: 'Create a member', body: createAdminUserSchema, response: { 201: adminUserSchema } } },
    async (req, reply) => {
      const row = await createMemberAsAdmin(db, req.body, req.user?.id ?? null);
      return reply.status(201).send(toAdminUser(row));
    },
  );

  app.put(
    '/api/admin/users/:id',
    {
      config: admin,
      schema: { summary: 'Edit a member', params: z.object({ id: textField(100) }), body: updateAdminUserSchema, response: { 200: adminUserSchema } },
    },
    async (req) => {
      const row = await editMemberAsAdmin(db, req.params.id, req.body, req.user?.id);
      return toAdminUser(row);
    },
  );

  // Signs a member out everywhere (a lost phone, a shared computer, a suspected takeover).
  app.post(
    '/api/admin/users/:id/sessions/revoke',
    { config: admin, schema: { summary: "End a member's sessions", params: z.object({ id: textField(100) }), response: { 200: messageSchema } } },
    async (req) => {
      const { id } = req.params;
      await endMemberSessions(db, id);
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
      schema: { summary: 'Import members from CSV', querystring: bulkRunQuerySchema, body: bulkImportRequestSchema, response: { 200: bulkImportResultSchema } },
    },
    async (req) => {
      const parsed = await parseImportCsv(req.body.csvContent);
      // dryRun and confirm may come as form fields or in the query string.
      const dryRun = req.body.dryRun || req.query.dryRun;
      const confirm = req.body.confirm || req.query.confirm;
      const planId = req.body.planId ?? req.query.planId;
      try {
        return await importRows(db, parsed, { dryRun, confirm, planId, startedBy: req.user?.id ?? null });
      } catch (err) {
        // Another request created one of these emails in the moment a chunk inserted it: the chunks
        // before stay applied (the run shows interrupted) and importing again applies the rest.
        if (err instanceof EmailTakenError)
          throw new AppError(409, 'import_conflict', 'Import stopped: a member in the file was created meanwhile; import the file again to apply the rest');
        throw err;
      }
    },
  );
};
