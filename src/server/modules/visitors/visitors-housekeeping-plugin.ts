import fp from 'fastify-plugin';
import type { FastifyPluginAsync } from 'fastify';
import { MINUTE_MS } from '../../../contracts/time';
import { runPeriodically } from '../../lib/periodic-job';
import { LIVE_RETENTION_MS, pruneLive } from './visitors-repository';

/** Visitors and page views older than the live monitor shows leave the tables. */
const plugin: FastifyPluginAsync = async (app) => {
  runPeriodically(app, {
    name: 'live monitor pruning',
    everyMs: 15 * MINUTE_MS,
    run: () => pruneLive(app.database.db, new Date(Date.now() - LIVE_RETENTION_MS)),
  });
};

export const visitorsHousekeepingPlugin = fp(plugin, { name: 'visitors-housekeeping' });
