import fp from 'fastify-plugin';
import type { FastifyPluginAsync } from 'fastify';
import { tracksRoutes, type TracksDeps } from './tracks-routes';

/** The track monitor's job (identifies the playing track every TRACK_MONITOR_INTERVAL_S) and the tracks routes. */
const plugin: FastifyPluginAsync<TracksDeps> = async (app, deps) => {
  const { monitor } = deps;
  app.addHook('onReady', async () => {
    if (app.config.backgroundJobs) monitor.start();
  });
  app.addHook('preClose', async () => {
    await monitor.stop();
  });
  await app.register(tracksRoutes, deps);
};

export const tracksPlugin = fp(plugin, { name: 'tracks' });
