import fp from 'fastify-plugin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  channelParamsSchema,
  metadataHealthSchema,
  recentTracksQuerySchema,
  recentTracksResponseSchema,
  recommendationRequestSchema,
  recommendationsResponseSchema,
  RECOMMENDATIONS_MAX,
  searchUrls,
  trackHistoryDeleteQuerySchema,
  trackHistoryDeleteResponseSchema,
  trackHistoryQuerySchema,
  trackHistoryResponseSchema,
  trackMonitorResponseSchema,
  type MetadataHealth,
  type Recommendation,
  type TrackIdentification,
  type TrackHistoryResponse,
  type TrackMonitorResponse,
} from '../../../contracts/radio';
import { CachedRead, ChangeNotices } from '../../lib/cached-read';
import { enforceRateLimit, RATE_RULES } from '../../lib/rate-limit';
import { access } from '../../plugins/access';
import { sendAnswer, type MemoryAnswer } from '../../plugins/memory-answers';
import type { TrackIdentificationRow } from '../../db/schema';
import { statusUrlFor } from '../radio/icecast-status';
import type { NowPlaying } from '../radio/now-playing';
import type { NowPlayingArt } from '../radio/nowplaying-routes';
import type { LiveEvents } from '../events/live-events';
import type { TrackMonitor } from './track-monitor';
import { deleteHistory, latestTrack, recentTracks, similarCandidates, toTrackIdentification, trackHistory } from './tracks-repository';

/** NOTIFY channel telling every instance the track history changed (their caches are dropped). */
export const TRACK_HISTORY_CHANNEL = 'track_history';
/** Track identification is a benefit from DHR1 up (TIER_TABLE.dhr1.benefits): its routes' one policy. */
const IDENTIFICATION = access.tier('dhr1');
/** Cached list bodies; (channel, limit) pairs beyond this are served uncached. */
const MAX_CACHED_LISTS = 64;

/** What the tracks module works with, made once by the composition root (modules/index.ts). */
export interface TracksDeps {
  monitor: TrackMonitor;
  nowPlaying: NowPlaying;
  /** Where the AzuraCast documents read the identified track's artwork. */
  art: NowPlayingArt;
  events: LiveEvents;
}

const routes: FastifyPluginAsyncZod<TracksDeps> = async (app, { monitor, nowPlaying, art, events }) => {
  const { db } = app.database;
  const changes = new ChangeNotices(app, TRACK_HISTORY_CHANNEL);
  const announce = () => changes.announce();
  monitor.onStored = () => void announce();
  // Recent lists are read by every player every 2 minutes: serve them from memory until the history changes.
  // Keyed `${channel}:${limit}`, as the memory path finds them.
  const recentLists = new CachedRead<string, MemoryAnswer>({
    load: async (key) => {
      const at = key.lastIndexOf(':');
      const rows = await recentTracks(db, key.slice(0, at), Number(key.slice(at + 1)));
      return { body: JSON.stringify(rows.map(toTrackIdentification)), cacheControl: 'private, no-cache' };
    },
    maxKeys: MAX_CACHED_LISTS,
    whenFull: 'keepOut',
    droppedBy: [changes],
  });

  // The AzuraCast documents show the identified track's artwork while it plays (radio/nowplaying-routes.ts).
  // Read again when the history changes, and every monitor period (a play's last hearing moves on).
  const latestPlays = new CachedRead<string, TrackIdentificationRow | null>({
    load: async (channel) => (await latestTrack(db, channel)) ?? null,
    maxAgeMs: monitor.intervalMs,
    droppedBy: [changes],
  });
  art.identified = (channel) => {
    const row = latestPlays.peek(channel);
    if (row === undefined) {
      latestPlays.warm(channel);
      return undefined;
    }
    const playing = row && Date.now() - row.lastSeenAt.getTime() <= monitor.stillPlayingMs;
    return playing && row.artwork && URL.canParse(row.artwork) ? row.artwork : null;
  };

  app.get(
    '/api/track-monitor/current/:channel',
    {
      // Track identification is a tier benefit (TIER_TABLE's benefits): its details go only to members whose
      // tier includes it. What is on air by the stream's own title stays public (/api/live-metadata).
      config: { access: IDENTIFICATION },
      schema: { summary: 'The identified track on a channel now', params: channelParamsSchema, response: { 200: trackMonitorResponseSchema } },
    },
    async (req): Promise<TrackMonitorResponse> => {
      const channel = await nowPlaying.knownChannel(req.params.channel);
      const row = await latestTrack(db, channel);
      // A track not heard for longer than a play can last is no longer "current".
      const current = row && Date.now() - row.lastSeenAt.getTime() <= monitor.stillPlayingMs ? row : undefined;
      const t = current ? toTrackIdentification(current) : undefined;
      return {
        track: t
          ? {
              title: t.title,
              artist: t.artist,
              artwork: t.artwork,
              service: t.service,
              confidence: t.confidence,
              timestamp: t.identifiedAt,
              youtubeUrl: t.youtubeUrl,
              soundcloudUrl: t.soundcloudUrl,
              spotifyUrl: t.spotifyUrl,
              genre: t.genre,
              bpm: t.bpm,
            }
          : null,
        isActive: monitor.isActive(channel),
      };
    },
  );

  app.get(
    '/api/tracks/recent/:channel',
    {
      // The identified tracks: track identification, for the tiers that include it (as above). Kept in
      // memory per list, answered after the access policy has checked the session.
      config: { access: IDENTIFICATION },
      schema: {
        summary: "A channel's recent tracks",
        params: channelParamsSchema,
        querystring: recentTracksQuerySchema,
        response: { 200: recentTracksResponseSchema },
      },
    },
    async (req, reply) => {
      const channel = await nowPlaying.knownChannel(req.params.channel);
      return sendAnswer<TrackIdentification[]>(req, reply, await recentLists.get(`${channel}:${req.query.limit}`));
    },
  );

  recommendationsRoute(app, nowPlaying);
  metadataHealthRoute(app, { monitor, nowPlaying, events });
  historyRoutes(app, nowPlaying, announce);
};

type App = Parameters<FastifyPluginAsyncZod<TracksDeps>>[0];

/** POST /api/tracks/recommendations: tracks like the one playing, from the history, with search links. */
function recommendationsRoute(app: App, nowPlaying: NowPlaying): void {
  const { db } = app.database;
  app.post(
    '/api/tracks/recommendations',
    {
      // Similar-track suggestions are part of track identification.
      config: { access: IDENTIFICATION },
      schema: { summary: 'Tracks similar to the ones given', body: recommendationRequestSchema, response: { 200: recommendationsResponseSchema } },
    },
    async (req): Promise<Recommendation[]> => {
      await enforceRateLimit(db, req, RATE_RULES.recommendations);
      const { artist, title, channel } = req.body;
      await nowPlaying.knownChannel(channel);
      const seen = new Set([`${artist.toLowerCase()}\n${title.toLowerCase()}`]);
      const out: Recommendation[] = [];
      for (const row of await similarCandidates(db, artist, title, channel)) {
        const key = `${row.artist.toLowerCase()}\n${row.title.toLowerCase()}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const search = searchUrls(row.artist, row.title);
        out.push({
          title: row.title,
          artist: row.artist,
          youtubeUrl: row.youtubeUrl ?? search.youtubeUrl,
          soundcloudUrl: row.soundcloudUrl ?? search.soundcloudUrl,
        });
        if (out.length === RECOMMENDATIONS_MAX) break;
      }
      return out;
    },
  );
}

/** GET /api/health/metadata: the pollers' and the monitor's state per channel, for the operator. */
function metadataHealthRoute(app: App, { monitor, nowPlaying, events }: Pick<TracksDeps, 'monitor' | 'nowPlaying' | 'events'>): void {
  app.get(
    '/api/health/metadata',
    // Shows internal status URLs and errors: for the operator only (the admin dashboard opens it).
    { config: { access: access.admin }, schema: { summary: "The metadata pollers' health", response: { 200: metadataHealthSchema } } },
    async (_req, reply): Promise<MetadataHealth> => {
      reply.header('cache-control', 'private, no-store');
      await nowPlaying.refreshChannels();
      return {
        channels: nowPlaying.channelIds().map((id) => {
          const ch = nowPlaying.channel(id);
          const s = nowPlaying.state(id);
          return {
            channel: id,
            name: ch?.name ?? id,
            streamUrl: ch?.streamUrl ?? '',
            statusUrl: ch ? safeStatusUrl(ch.streamUrl, ch.statusUrl) : null,
            online: s?.online ?? false,
            artist: s?.artist ?? '',
            title: s?.title ?? '',
            listeners: s?.listeners ?? null,
            bitrate: s?.bitrate ?? null,
            updatedAt: s?.updatedAt ?? null,
            ...nowPlaying.diagnostics(id),
            monitorActive: monitor.isActive(id),
          };
        }),
        recognizer: app.config.RECOGNIZER,
        pollIntervalS: app.config.METADATA_POLL_S,
        monitorIntervalS: app.config.TRACK_MONITOR_INTERVAL_S,
        sseClients: events.hub.size,
      };
    },
  );
}

/** The track history: the admin's and VIP members' lists, and the admin's clear (which drops every instance's caches). */
function historyRoutes(app: App, nowPlaying: NowPlaying, announce: () => Promise<void>): void {
  const { db } = app.database;
  async function history(channel: string | undefined, limit: number): Promise<TrackHistoryResponse> {
    if (channel) await nowPlaying.knownChannel(channel);
    const { rows, stats } = await trackHistory(db, channel, limit);
    return { tracks: rows.map(toTrackIdentification), stats };
  }

  const historySchema = { querystring: trackHistoryQuerySchema, response: { 200: trackHistoryResponseSchema } };
  app.get('/api/admin/track-history', { config: { access: access.admin }, schema: historySchema }, async (req, reply) => {
    reply.header('cache-control', 'private, no-store');
    return history(req.query.channel, req.query.limit);
  });
  app.get(
    '/api/vip/track-history',
    { config: { access: access.tier('vip') }, schema: { ...historySchema, summary: 'The full track history, for members whose tier includes it' } },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return history(req.query.channel, req.query.limit);
    },
  );

  app.delete(
    '/api/admin/track-history',
    {
      config: { access: access.admin },
      schema: { summary: 'Clear the track history', querystring: trackHistoryDeleteQuerySchema, response: { 200: trackHistoryDeleteResponseSchema } },
    },
    async (req) => {
      const channel = req.query.channel ? await nowPlaying.knownChannel(req.query.channel) : undefined;
      const deleted = await deleteHistory(db, channel);
      req.log.info({ channel: channel ?? 'all', deleted, by: req.user?.id }, 'track history cleared');
      await announce();
      return { deleted };
    },
  );
}

/** A channel row an operator edited by hand may hold a stream URL that does not parse. */
function safeStatusUrl(streamUrl: string, statusUrl: string | null): string | null {
  try {
    return statusUrlFor(streamUrl, statusUrl);
  } catch {
    return null;
  }
}

export const tracksRoutes = fp(routes, { name: 'tracks-routes' });
