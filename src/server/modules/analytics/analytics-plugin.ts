import fp from 'fastify-plugin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { SECOND_MS } from '../../../contracts/time';
import { runPeriodically } from '../../lib/periodic-job';
import type { NowPlaying } from '../radio/now-playing';
import { MINUTE_MS } from '../../../contracts/time';
import { recordListeningSessions } from './listening-sessions';
import { analyticsRoutes } from './analytics-routes';
import { rollUpRecent } from './rollups-service';

/** The analytics module's objects, made once by the composition root (modules/index.ts). */
export interface AnalyticsDeps {
  nowPlaying: NowPlaying;
}

/**
 * Analytics: listening sessions read from Icecast's listener lists on the status poll's period, the
 * rollups built incrementally every few minutes (once across instances, in the background lane), and
 * the admin's reads.
 */
const plugin: FastifyPluginAsyncZod<AnalyticsDeps> = async (app, { nowPlaying }) => {
  const icecastAdmin = { user: app.config.ICECAST_ADMIN_USER, password: app.config.ICECAST_ADMIN_PASSWORD };
  // Without the admin password there is no listener list to read (docs/configuration.md).
  if (icecastAdmin.password) {
    runPeriodically(app, {
      name: 'listening-sessions',
      everyMs: app.config.METADATA_POLL_S * SECOND_MS,
      run: () => recordListeningSessions(app.database.db, nowPlaying, icecastAdmin),
    });
  }
  runPeriodically(app, { name: 'analytics-rollups', everyMs: ROLLUP_EVERY_MS, run: () => rollUpRecent(app.database.db) });
  await app.register(analyticsRoutes, { nowPlaying });
};

/** How often today's rollups are brought up to date. */
const ROLLUP_EVERY_MS = 5 * MINUTE_MS;

export const analyticsPlugin = fp(plugin, { name: 'analytics' });
