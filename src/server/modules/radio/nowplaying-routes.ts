import fp from 'fastify-plugin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  azuraNowPlayingListSchema,
  azuraSseQuerySchema,
  azuraStationListSchema,
  azuraStationNowPlayingSchema,
  azuraStationSchema,
  azuraTimeSchema,
  nowPlayingShortcodeParamsSchema,
  type AzuraStation,
  type AzuraStationNowPlaying,
  type AzuraTime,
} from '../../../contracts/nowplaying';
import { SECOND_MS } from '../../../contracts/time';
import { clientBucket } from '../../lib/client-address';
import { badRequest, notFound } from '../../lib/errors';
import { access } from '../../plugins/access';
import { sendAnswer, type FromMemory, type MemoryAnswer } from '../../plugins/memory-answers';
import { mediaReply, noContentReply } from '../../plugins/reply-schemas';
import { AzuraSse } from './azuracast-sse';
import { azuraTime, freeMountPlaylist, isPublicStation, toAzuraNowPlaying, toAzuraStation } from './azuracast-view';
import type { NowPlaying } from './now-playing';
import type { LiveEvents } from '../events/live-events';
import { openStream, refuseStream } from '../events/sse-replies';

export interface NowPlayingArt {
  /** The artwork URL of the track identified as playing now, null for none, undefined while it is being read. */
  identified: (channel: string) => string | null | undefined;
}

/** Widgets poll; `elapsed` moves with the clock, so an answer is rebuilt once a second, and at once when a title changes. */
const CACHE_CONTROL = 'public, max-age=5';
/** Every route here may be read by other sites' widgets (plugins/cors.ts). */
const PUBLIC_READ = { access: access.public, sharedAnswer: true, cors: 'public' } as const;

/** One station's answers, built together. */
interface Entry {
  shortcode: string;
  doc: AzuraStationNowPlaying;
  nowPlaying: MemoryAnswer;
  station: MemoryAnswer;
}

interface Built {
  second: number;
  /** The now-playing state's version it was built from: a new title rebuilds at once. */
  version: number;
  list: MemoryAnswer;
  stations: MemoryAnswer;
  /** By lower-case shortcode and by numeric id, as AzuraCast accepts either. */
  byKey: Map<string, Entry>;
  /** The identified artwork each channel had in this build (kept while a fresh one is read). */
  art: Map<string, string | null>;
}

const answer = (body: unknown): MemoryAnswer => ({ body: JSON.stringify(body), cacheControl: CACHE_CONTROL });

/** Every channel's AzuraCast documents, from the in-memory now-playing state. */
function build(nowPlaying: NowPlaying, art: NowPlayingArt, publicUrl: string, now: number, previous: Built | undefined): Built {
  const byKey = new Map<string, Entry>();
  const artNow = new Map<string, string | null>();
  const listed: AzuraStationNowPlaying[] = [];
  const stations: AzuraStation[] = [];
  nowPlaying.channelIds().forEach((id, i) => {
    const channel = nowPlaying.channel(id);
    if (!channel) return;
    const identified = art.identified(id);
    const trackArt = identified === undefined ? (previous?.art.get(id) ?? null) : identified;
    artNow.set(id, trackArt);
    const src = { channel, stationId: i + 1, state: nowPlaying.state(id), songs: nowPlaying.playedSongs(id), figures: nowPlaying.mounts.of(channel), trackArt };
    const doc = toAzuraNowPlaying(src, publicUrl, now);
    const entry = { shortcode: id, doc, nowPlaying: answer(doc), station: answer(doc.station) };
    byKey.set(id.toLowerCase(), entry);
    byKey.set(String(i + 1), entry);
    // AzuraCast lists public stations only: DHR's are the channels with a free stream.
    if (isPublicStation(channel)) {
      listed.push(doc);
      stations.push(toAzuraStation(src, publicUrl));
    }
  });
  return { second: Math.floor(now / SECOND_MS), version: nowPlaying.version, list: answer(listed), stations: answer(stations), byKey, art: artNow };
}

/** The documents of every channel, rebuilt from memory at most once a second (and after each change). */
class AzuraAnswers {
  private built: Built | undefined;

  constructor(
    private readonly nowPlaying: NowPlaying,
    private readonly art: NowPlayingArt,
    private readonly publicUrl: string,
  ) {}

  current(): Built {
    if (this.built?.second !== Math.floor(Date.now() / SECOND_MS) || this.built.version !== this.nowPlaying.version) this.rebuild();
    return this.built as Built;
  }

  rebuild(now = Date.now()): Built {
    this.built = build(this.nowPlaying, this.art, this.publicUrl, now, this.built);
    return this.built;
  }

  /** The station a path names (numeric id or shortcode, any case), or the 404 "Unknown station". */
  async entryOf(key: string): Promise<Entry> {
    const found = this.current().byKey.get(key.toLowerCase());
    if (found) return found;
    // Channels are data: an unknown name re-reads them (at most every few seconds) before the 404.
    await this.nowPlaying.knownChannel(key.toLowerCase()).catch(() => undefined);
    const entry = this.rebuild().byKey.get(key.toLowerCase());
    if (!entry) throw notFound(`Unknown station '${key}'`, 'unknown_channel');
    return entry;
  }
}

/**
 * AzuraCast's public API (contracts/nowplaying.ts), answered from the in-memory now-playing state:
 * now playing (all, one, static file), stations, time, the current art, .pls/.m3u playlists of each
 * free mount and the SSE stream. Other sites may read all of it (`cors: 'public'`).
 */
/** What the AzuraCast routes read, made once by the composition root (modules/index.ts). */
export interface NowPlayingApiDeps {
  nowPlaying: NowPlaying;
  /** Set by the tracks module (the radio module does not import it). */
  art: NowPlayingArt;
  /** The AzuraCast stream takes the live event stream's caps. */
  events: LiveEvents;
}

type App = Parameters<FastifyPluginAsyncZod<NowPlayingApiDeps>>[0];

const routes: FastifyPluginAsyncZod<NowPlayingApiDeps> = async (app, { nowPlaying, art, events }) => {
  const answers = new AzuraAnswers(nowPlaying, art, app.config.PUBLIC_URL);
  const byKey = (key: string | undefined) => (key ? answers.current().byKey.get(key.toLowerCase()) : undefined);
  const listFromMemory: FromMemory = (_params, query) => (query === '' ? answers.current().list : undefined);
  const oneFromMemory: FromMemory = (params, query) => (query === '' ? byKey(params.shortcode)?.nowPlaying : undefined);
  const schema = { params: nowPlayingShortcodeParamsSchema, response: { 200: azuraStationNowPlayingSchema } };

  app.get(
    '/api/nowplaying',
    {
      config: { ...PUBLIC_READ, fromMemory: listFromMemory },
      schema: { summary: 'Now playing on every public station (AzuraCast shape)', response: { 200: azuraNowPlayingListSchema } },
    },
    async (req, reply) => sendAnswer<AzuraStationNowPlaying[]>(req, reply, answers.current().list),
  );
  app.get(
    '/api/nowplaying/:shortcode',
    { config: { ...PUBLIC_READ, fromMemory: oneFromMemory }, schema: { ...schema, summary: 'Now playing on one station (AzuraCast shape)' } },
    async (req, reply) => sendAnswer<AzuraStationNowPlaying>(req, reply, (await answers.entryOf(req.params.shortcode)).nowPlaying),
  );
  // AzuraCast's static file of the same document (for caches and CDNs).
  app.get(
    '/api/nowplaying_static/:shortcode.json',
    { config: { ...PUBLIC_READ, fromMemory: oneFromMemory }, schema: { ...schema, summary: 'Now playing on one station, as a static file (AzuraCast shape)' } },
    async (req, reply) => sendAnswer<AzuraStationNowPlaying>(req, reply, (await answers.entryOf(req.params.shortcode)).nowPlaying),
  );
  app.get(
    '/api/stations',
    {
      config: { ...PUBLIC_READ, fromMemory: (_p, query) => (query === '' ? answers.current().stations : undefined) },
      schema: { summary: 'The public stations (AzuraCast shape)', response: { 200: azuraStationListSchema } },
    },
    async (req, reply) => sendAnswer<AzuraStation[]>(req, reply, answers.current().stations),
  );
  app.get(
    '/api/station/:shortcode',
    {
      config: { ...PUBLIC_READ, fromMemory: (params, query) => (query === '' ? byKey(params.shortcode)?.station : undefined) },
      schema: { summary: 'One station (AzuraCast shape)', params: nowPlayingShortcodeParamsSchema, response: { 200: azuraStationSchema } },
    },
    async (req, reply) => sendAnswer<AzuraStation>(req, reply, (await answers.entryOf(req.params.shortcode)).station),
  );
  app.get(
    '/api/time',
    { config: PUBLIC_READ, schema: { summary: "The server's time (AzuraCast shape)", response: { 200: azuraTimeSchema } } },
    async (_req, reply): Promise<AzuraTime> => {
      // The time is stale as soon as it is sent: never kept by a cache.
      reply.header('cache-control', 'no-store');
      return azuraTime(new Date());
    },
  );
  app.get(
    '/api/nowplaying/:shortcode/art',
    {
      config: PUBLIC_READ,
      schema: { summary: "The playing track's artwork (a redirect)", params: nowPlayingShortcodeParamsSchema, response: { 302: noContentReply } },
    },
    async (req, reply) => {
      const { doc } = await answers.entryOf(req.params.shortcode);
      // The identified track's artwork while it plays, else the station's picture (toAzuraNowPlaying).
      return reply.header('cache-control', CACHE_CONTROL).redirect(doc.now_playing?.song.art ?? `${app.config.PUBLIC_URL}/`, 302);
    },
  );
  playlistRoutes(app, answers, nowPlaying);
  sseRoute(app, answers, nowPlaying, events);
};

/** The free mount as .pls and .m3u playlists (GET /api/nowplaying/{station}/playlist.pls|m3u). */
function playlistRoutes(app: App, answers: AzuraAnswers, nowPlaying: NowPlaying): void {
  const listing = { genre: app.config.STATION_GENRE, country: app.config.STATION_COUNTRY, language: app.config.STATION_LANGUAGE };
  for (const kind of ['pls', 'm3u'] as const) {
    app.get(
      `/api/nowplaying/:shortcode/playlist.${kind}`,
      {
        config: PUBLIC_READ,
        schema: {
          summary: `A station's free stream as a${kind === 'pls' ? ' PLS' : 'n M3U'} playlist`,
          params: nowPlayingShortcodeParamsSchema,
          response: { 200: mediaReply(kind === 'pls' ? 'audio/x-scpls' : 'audio/x-mpegurl', `The free mount as a .${kind} playlist.`) },
        },
      },
      async (req, reply) => {
        const { shortcode } = await answers.entryOf(req.params.shortcode);
        const channel = nowPlaying.channel(shortcode);
        const playlist = channel ? freeMountPlaylist(channel, nowPlaying.mounts.freeMount(channel), kind, listing) : null;
        if (!playlist) throw notFound(`${channel?.name ?? shortcode} has no free stream: members listen on the channel's page.`, 'no_free_stream');
        return reply
          .header('cache-control', 'public, max-age=300')
          .header('content-disposition', `inline; filename="${shortcode}.${kind}"`)
          .type(kind === 'pls' ? 'audio/x-scpls' : 'audio/x-mpegurl')
          .send(playlist);
      },
    );
  }
}

/** AzuraCast's now-playing SSE stream (azuracast-sse.ts), fed by every change the now-playing store applies. */
function sseRoute(app: App, answers: AzuraAnswers, nowPlaying: NowPlaying, events: LiveEvents): void {
  const sse = new AzuraSse();
  sse.hub.limits = events.hub.limits;
  // Each change goes to the streams at once, with the document a GET would answer now.
  nowPlaying.changeListeners.push((state) => {
    const now = Date.now();
    const entry = answers.rebuild(now).byKey.get(state.channel.toLowerCase());
    if (entry) sse.publish(entry.doc, now);
  });
  app.addHook('preClose', async () => sse.hub.closeAll());

  app.get(
    '/api/live/nowplaying/sse',
    {
      config: PUBLIC_READ,
      schema: {
        summary: 'Now-playing changes as Centrifugo server-sent events (AzuraCast)',
        querystring: azuraSseQuerySchema,
        response: {
          200: mediaReply('text/event-stream', "AzuraCast's now-playing stream (Centrifugo's SSE): a `connect` message, then a `pub` with each change."),
          503: mediaReply('text/event-stream', 'Too many live connections: a `retry:` and an `error` event, with Retry-After.'),
        },
      },
    },
    async (req, reply) => {
      const asked = AzuraSse.subscriptions(req.query.cf_connect);
      if (asked === undefined) throw badRequest('cf_connect must be a JSON connect request: {"subs":{"station:<shortcode>":{}}}', 'validation_error');
      const client = clientBucket(req.ip);
      if (!sse.hub.admits(client)) return refuseStream(reply);
      const { byKey } = answers.current();
      const docs = new Map(asked.flatMap((key) => byKey.get(key)?.doc ?? []).map((doc) => [doc.station.shortcode, doc]));
      const res = openStream(req, reply);
      if (!res) return;
      res.write(`retry: 3000\n\n${sse.connectFrame(docs, Date.now())}`);
      sse.add(res, client, [...docs.keys()]);
    },
  );
}

export const nowPlayingApiRoutes = fp(routes, { name: 'nowplaying-api' });
