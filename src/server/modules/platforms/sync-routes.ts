import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { syncRequestSchema, syncResultSchema, type SyncResult } from '../../../contracts/admin';
import { AppError } from '../../lib/errors';
import { access } from '../../plugins/access';
import type { SyncRequest, SyncTrigger } from './sync';

/** Runs a sync (with this instance's metrics and shutdown signal): platforms-plugin.ts gives it. */
type RunSync = (trigger: SyncTrigger, request?: SyncRequest) => Promise<SyncResult & { skipped?: boolean }>;

/** The admin's sync: a preview, then the run of the plan it showed (docs/decisions/0023-member-grants-and-bulk-runs.md). */
export const syncRoutes: FastifyPluginAsyncZod<{ sync: RunSync }> = async (app, { sync }) => {
  app.post(
    '/api/admin/sync-subscriptions',
    {
      config: { access: access.admin },
      // The page posts {dryRun: true} for the preview, then {planId} (with confirm: true when it asks); {} and an empty body run it too.
      schema: { summary: 'Sync the platform subscriptions now', body: syncRequestSchema, response: { 200: syncResultSchema } },
    },
    async (req): Promise<SyncResult> => {
      const body = req.body;
      const result = await sync('manual', {
        dryRun: body?.dryRun === true,
        confirm: body?.confirm === true,
        ...(body?.planId ? { planId: body.planId } : {}),
        startedBy: req.user?.id ?? null,
      });
      // A preview answers its failures (the dialog shows them and offers nothing to apply); a run fails.
      const attempted = result.platforms.filter((p) => p.attempted);
      if (!result.dryRun && attempted.length > 0 && attempted.every((p) => !p.ok)) {
        throw new AppError(502, 'sync_failed', result.errors.join('; '));
      }
      const { skipped: _skipped, ...reply } = result;
      return reply;
    },
  );
};
