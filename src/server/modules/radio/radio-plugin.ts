import fp from 'fastify-plugin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Gauge, type Registry } from 'prom-client';
import { SECOND_MS } from '../../../contracts/time';
import { runPeriodically } from '../../lib/periodic-job';
import type { LiveEvents } from '../events/live-events';
import type { IcyTitles } from './icy-titles';
import { stationListeners } from './mount-figures';
import type { NowPlaying } from './now-playing';
import { renewStreamConnections } from './stream-admission';
import { liveMetadataRoutes } from './live-metadata-routes';

/** The radio module's objects, made once by the composition root (modules/index.ts). */
export interface RadioDeps {
  nowPlaying: NowPlaying;
  icyTitles: IcyTitles;
  events: LiveEvents;
}

/** The radio: now playing (the Icecast poller and the title readers), its metrics and jobs, and the live-metadata routes. */
const plugin: FastifyPluginAsyncZod<RadioDeps> = async (app, { nowPlaying, icyTitles, events }) => {
  nowPlaying.onChannels = () => icyTitles.sync();
  // A new live event stream is sent every channel's state first (after Last-Event-ID on a reconnect).
  events.addReplay((lastId) => nowPlaying.framesSince(lastId));

  registerGauges(app.metrics, nowPlaying);

  app.addHook('onReady', async () => {
    await nowPlaying.init();
    if (app.config.backgroundJobs) nowPlaying.start(app.config.METADATA_POLL_S * SECOND_MS);
    // Titles within a second of the audio (docs/decisions/0029-one-now-playing-and-icy-timing.md).
    if (app.config.backgroundJobs && app.config.ICY_TITLES === 'on') icyTitles.start();
  });

  // Premium connection rows follow Icecast's own listener lists: renewed while listed, ended after two
  // lists that miss them (a listener_remove that never came), with the status poll's period.
  const icecastAdmin = { user: app.config.ICECAST_ADMIN_USER, password: app.config.ICECAST_ADMIN_PASSWORD };
  if (icecastAdmin.password) {
    runPeriodically(app, {
      name: 'stream-connections',
      everyMs: app.config.METADATA_POLL_S * SECOND_MS,
      run: () => renewStreamConnections(app.database.db, nowPlaying, icecastAdmin),
    });
  }
  // Before the server stops accepting: the pollers and readers stop.
  app.addHook('preClose', async () => {
    await icyTitles.stop();
    await nowPlaying.stop();
  });

  await app.register(liveMetadataRoutes, { nowPlaying });
};

export const radioPlugin = fp(plugin, { name: 'radio' });

/** What operators watch: each channel's air state, its Icecast listeners and its title reader. */
function registerGauges(registry: Registry, nowPlaying: NowPlaying): void {
  new Gauge({
    name: 'dhr_channel_on_air',
    help: '1 while the channel is on air (its Icecast mount is listed), else 0',
    labelNames: ['channel'] as const,
    registers: [registry],
    collect() {
      for (const id of nowPlaying.channelIds()) this.set({ channel: id }, nowPlaying.state(id)?.online ? 1 : 0);
    },
  });
  new Gauge({
    name: 'dhr_channel_listeners',
    help: "Listeners Icecast reports on the channel's mounts (premium and free) together",
    labelNames: ['channel'] as const,
    registers: [registry],
    collect() {
      for (const id of nowPlaying.channelIds()) {
        const ch = nowPlaying.channel(id);
        if (ch) this.set({ channel: id }, stationListeners(nowPlaying.state(id), nowPlaying.mounts.of(ch)));
      }
    },
  });
  new Gauge({
    name: 'dhr_mount_listeners',
    help: 'Listeners Icecast reports on each mount of a channel (its status read by this instance)',
    labelNames: ['channel', 'mount'] as const,
    registers: [registry],
    collect() {
      for (const id of nowPlaying.channelIds()) {
        const ch = nowPlaying.channel(id);
        if (!ch) continue;
        const { premium, free } = nowPlaying.mounts.of(ch);
        // Listeners only: the state's figure leaves DHR's own title readers out.
        this.set({ channel: id, mount: 'premium' }, nowPlaying.state(id)?.listeners ?? premium?.listeners ?? 0);
        if (ch.freeStreamUrl) this.set({ channel: id, mount: 'free' }, free?.listeners ?? 0);
      }
    },
  });

  new Gauge({
    name: 'dhr_title_reader_connected',
    help: "1 while this instance's in-band title reader is connected to the channel mount, else 0 (titles then come from the status poll)",
    labelNames: ['channel'] as const,
    registers: [registry],
    collect() {
      for (const id of nowPlaying.channelIds()) this.set({ channel: id }, nowPlaying.titleReaderConnected(id) ? 1 : 0);
    },
  });
}
