import fp from 'fastify-plugin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { SECOND_MS } from '../../../contracts/time';
import { runPeriodically } from '../../lib/periodic-job';
import type { NowPlaying } from '../radio/now-playing';
import { recordListeningSessions } from './listening-sessions';

/** The analytics module's objects, made once by the composition root (modules/index.ts). */
export interface AnalyticsDeps {
  nowPlaying: NowPlaying;
}

/** Analytics: listening sessions read from Icecast's listener lists on the status poll's period. */
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
};

export const analyticsPlugin = fp(plugin, { name: 'analytics' });
