import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { MINUTE_MS } from '../../../contracts/time';
import { runPeriodically } from '../../lib/periodic-job';
import { mixAdminRoutes } from './mix-admin-routes';
import { mixUploadsRoutes } from './mix-uploads-routes';
import { mixesRoutes } from './mixes-routes';
import type { Mixes } from './mix-library';

/** How often an instance looks for listening copies to make (new mixes start at once; this picks up the rest). */
const RENDITION_POLL_MS = MINUTE_MS;

/**
 * The VIP mix library (ADR 0015): the listening copies' job, the library and media routes
 * (mixes-routes.ts), the admin routes (mix-admin-routes.ts) and the resumable uploads.
 */
const plugin: FastifyPluginAsync<{ mixes: Mixes }> = async (app, { mixes }) => {
  const { changes, renditions } = mixes;
  const announceChange = () => changes.announce();

  // Listening copies: at start (existing mixes, and any a stopped instance left half done), after each
  // upload, and every RENDITION_POLL_MS for retries and take-overs.
  const renderInBackground = () => {
    if (app.config.backgroundJobs) void renditions.drain().catch((err: unknown) => app.log.warn({ err }, 'listening copies failed; will retry'));
  };
  app.addHook('onReady', async () => renderInBackground());
  app.addHook('onClose', async () => renditions.stop());
  runPeriodically(app, { name: 'mix-renditions', everyMs: RENDITION_POLL_MS, run: () => renditions.drain() });

  await app.register(mixesRoutes, { mixes });
  await app.register(mixAdminRoutes, { announceChange, renderInBackground });
  await app.register(mixUploadsRoutes, { announceChange, renderInBackground });
};

export const mixesPlugin = fp(plugin, { name: 'mixes' });
