import fp from 'fastify-plugin';
import type { FastifyPluginAsync } from 'fastify';
import { MINUTE_MS } from '../../../contracts/time';
import { runPeriodically } from '../../lib/periodic-job';
import { deleteExpiredRateLimits } from '../../lib/rate-limit';
import { deleteExpiredSessions } from '../../lib/sessions';
import { deleteDeadTokens } from './auth-tokens';

/** Spent and expired sign-in tokens, old rate-limit windows and expired sessions leave the tables. */
const plugin: FastifyPluginAsync = async (app) => {
  const { db } = app.database;
  runPeriodically(app, {
    name: 'auth housekeeping',
    everyMs: 15 * MINUTE_MS,
    run: async () => {
      await deleteDeadTokens(db);
      await deleteExpiredRateLimits(db);
      await deleteExpiredSessions(db);
    },
  });
};

export const authHousekeepingPlugin = fp(plugin, { name: 'auth-housekeeping' });
