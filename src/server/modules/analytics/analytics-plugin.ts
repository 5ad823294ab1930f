import fp from 'fastify-plugin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { SECOND_MS } from '../../../contracts/time';
import { runPeriodically } from '../../lib/periodic-job';
import type { NowPlaying } from '../radio/now-playing';
import { MINUTE_MS } from '../../../contracts/time';
import { recordListeningSessions } from './listening-sessions';
import { analyticsRoutes } from './analytics-routes';
import { runRollupOffTheServer, stopRollupProcesses } from './rollup-process';
import { sendMonthlySummary } from './monthly-mail';
import { HOUR_MS } from '../../../contracts/time';

/** The analytics module's objects, made once by the composition root (modules/index.ts). */
export interface AnalyticsDeps {
  nowPlaying: NowPlaying;
}

/**
 * Analytics: listening sessions read from Icecast's listener lists on the status poll's period, the
 * rollups built incrementally every few minutes (once across instances; on PostgreSQL in a process of
 * their own at the lowest CPU priority, rollup-process.ts), and the admin's reads.
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
  app.addHook('onClose', async () => stopRollupProcesses());
  runPeriodically(app, {
    name: 'analytics-rollups',
    everyMs: ROLLUP_EVERY_MS,
    run: () => runRollupOffTheServer(app.database, app.config.DATABASE_URL, { kind: 'recent' }),
  });
  // Checked hourly; on the first Dublin day of a month the summary goes out once (monthly-mail.ts).
  runPeriodically(app, {
    name: 'analytics-monthly-mail',
    everyMs: HOUR_MS,
    run: () => sendMonthlySummary(app.database.db, app.mailer, app.config.PUBLIC_URL),
  });
  await app.register(analyticsRoutes, { nowPlaying });
};

/** How often today's rollups are brought up to date. */
const ROLLUP_EVERY_MS = 5 * MINUTE_MS;

export const analyticsPlugin = fp(plugin, { name: 'analytics' });
