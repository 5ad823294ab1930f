import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  bulkRunQuerySchema,
  planIdField,
  heldChangesSchema,
  heldDecisionReplySchema,
  heldDecisionSchema,
  memberHistorySchema,
  revertRunReplySchema,
} from '../../../contracts/admin';
import { access } from '../../plugins/access';
import { confirmHeld, dismissHeld, heldChanges, memberHistory, revertRun } from './bulk-runs-service';
import { textField } from '../../../contracts/text-field';

/**
 * Undo and review of bulk changes to members (docs/decisions/0023-member-grants-and-bulk-runs.md):
 * revert a run of the sync log, the losses a scheduled sync held back, a member's history. Admin only.
 */
export const bulkRunsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const admin = { access: access.admin };

  app.post(
    '/api/admin/sync-runs/:id/revert',
    {
      config: admin,
      schema: {
        summary: 'Revert a sync run',
        params: z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) }),
        querystring: bulkRunQuerySchema,
        body: z.object({ dryRun: z.boolean().optional(), confirm: z.boolean().optional(), planId: planIdField.optional() }).nullish(),
        response: { 200: revertRunReplySchema },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      const dryRun = req.query.dryRun || req.body?.dryRun === true;
      const confirm = req.query.confirm || req.body?.confirm === true;
      const planId = req.query.planId ?? req.body?.planId;
      const result = await revertRun(db, req.params.id, { dryRun, confirm, planId, adminId: req.user?.id ?? null });
      if (!dryRun) req.log.info({ runId: req.params.id, reverted: result.reverted, by: req.user?.id }, 'bulk run reverted');
      return result;
    },
  );

  app.get(
    '/api/admin/held-changes',
    { config: admin, schema: { summary: 'Access changes held for confirmation', response: { 200: heldChangesSchema } } },
    async (_req, reply) => {
      reply.header('cache-control', 'no-store');
      return heldChanges(db);
    },
  );

  app.post(
    '/api/admin/held-changes/confirm',
    { config: admin, schema: { summary: 'Apply held access changes', body: heldDecisionSchema.nullish(), response: { 200: heldDecisionReplySchema } } },
    async (req) => {
      const result = await confirmHeld(db, req.body?.ids ?? null, req.user?.id ?? null);
      req.log.info({ applied: result.done, stale: result.stale, by: req.user?.id }, 'held supporter changes confirmed');
      return result;
    },
  );

  app.post(
    '/api/admin/held-changes/dismiss',
    { config: admin, schema: { summary: 'Dismiss held access changes', body: heldDecisionSchema.nullish(), response: { 200: heldDecisionReplySchema } } },
    async (req) => dismissHeld(db, req.body?.ids ?? null),
  );

  app.get(
    '/api/admin/users/:id/history',
    { config: admin, schema: { summary: "A member's access history", params: z.object({ id: textField(100) }), response: { 200: memberHistorySchema } } },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return memberHistory(db, req.params.id);
    },
  );
};
