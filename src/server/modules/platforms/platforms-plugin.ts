import type { PlatformSubscribers } from '../auth/platform-subscribers';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { runPeriodically } from '../../lib/periodic-job';
import type { FetchOptions } from './http';
import { expirePassedGrants } from '../members/entitlement-service';
import { platformSubscriberFor, pruneOldRecords } from './platforms-repository';
import { reconcileUsers } from './reconcile-service';
import { supporterRoutes } from './supporter-routes';
import { createPlatformMetrics } from './platform-metrics';
import { createSyncRunner, type SyncRequest, type SyncTrigger } from './sync';
import { webhookRoutes } from './webhook-routes';
import { syncRoutes } from './sync-routes';
import { MINUTE_MS, SECOND_MS } from '../../../contracts/time';

/** The expiry pass runs this often (cheap: one indexed UPDATE). */
const EXPIRY_PASS_MS = MINUTE_MS;

export interface PlatformsPluginOptions {
  /** Sign-in by link and email verification ask the platforms through it (modules/auth). */
  platformSubscribers: PlatformSubscribers;
  /** Timeouts/retries of the platform clients (tests shorten them). */
  fetch?: FetchOptions;
}

/**
 * Patreon and Buy Me a Coffee kept in step: the admin's sync call, the scheduled sync every
 * SYNC_INTERVAL_MIN, the expiry pass, and the webhooks.
 */
export const platformsPlugin: FastifyPluginAsyncZod<PlatformsPluginOptions> = async (app, opts) => {
  const runner = createSyncRunner({ database: app.database, config: app.config }, opts.fetch ?? {});
  const closing = new AbortController();
  const metrics = app.hasDecorator('metrics') ? createPlatformMetrics(app.metrics) : null;
  const sync = async (trigger: SyncTrigger, request?: SyncRequest) => {
    const result = await runner.sync(trigger, closing.signal, request);
    metrics?.syncDone(trigger, result);
    return result;
  };

  await app.register(webhookRoutes, { metrics });
  await app.register(supporterRoutes);

  // Sign-in by link asks this for emails without an account, and email verification applies stored
  // records through it (modules/auth/platform-subscribers.ts).
  opts.platformSubscribers.register(
    (email) => platformSubscriberFor(app.database.db, email),
    async (db, email) => {
      await reconcileUsers(db, { emails: [email] }, { cause: 'signup' });
    },
  );

  await app.register(syncRoutes, { sync });

  app.addHook('onClose', async () => {
    closing.abort();
    await runner.current?.catch(() => undefined);
  });

  // Fractions of a minute are allowed (tests); never more often than every second.
  runPeriodically(app, {
    name: 'platform sync',
    everyMs: Math.max(SECOND_MS, app.config.SYNC_INTERVAL_MIN * MINUTE_MS),
    run: async () => {
      await pruneOldRecords(app.database.db).catch((err: unknown) => app.log.warn({ err }, 'pruning old webhook deliveries failed'));
      const r = await sync('scheduled');
      if (r.errors.length) app.log.warn({ errors: r.errors }, 'scheduled platform sync had errors');
      else if (!r.skipped) app.log.info({ updated: r.updated }, 'scheduled platform sync');
    },
  });
  runPeriodically(app, {
    name: 'grant expiry pass',
    everyMs: EXPIRY_PASS_MS,
    run: async () => {
      const expired = await expirePassedGrants(app.database.db);
      if (expired) app.log.info({ expired }, 'expiry pass');
    },
  });

  if (!app.config.backgroundJobs) return;
  // Expiries that passed while the server was down are handled at once (the pass is idempotent).
  app.addHook('onReady', async () => {
    await expirePassedGrants(app.database.db).catch((err: unknown) => app.log.warn({ err }, 'expiry pass failed'));
  });
};
