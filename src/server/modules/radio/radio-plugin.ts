import type { FastifyReply, FastifyRequest } from 'fastify';
import type { UserRow } from '../../db/schema';
import { findSessionUser, sessionCookieName } from '../../lib/sessions';
import fp from 'fastify-plugin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Gauge } from 'prom-client';
import { z } from 'zod';
import { errorEnvelopeSchema } from '../../../contracts/errors';
import { channelParamsSchema, liveMetadataQuerySchema, liveMetadataReplySchema } from '../../../contracts/radio';
import { notFound } from '../../lib/errors';
import { access } from '../../plugins/access';
import type { MemoryAnswer } from '../../plugins/memory-answers';
import { IcyTitles } from './icy-titles';
import { stationListeners } from './mount-figures';
import { type MetadataReply, NowPlaying } from './now-playing';
import { StreamTokens } from './stream-tokens';
import { renewStreamConnections } from './stream-admission';
import { runPeriodically } from '../../lib/periodic-job';
import { MEMBER_CHANGED_CHANNEL, SSE_RETRY_AFTER_S, streamsToEnd } from './sse-hub';
import { SECOND_MS } from '../../../contracts/time';
import { mediaReply, noContentReply } from '../../plugins/reply-schemas';
import { textField } from '../../../contracts/text-field';
import { clientBucket } from '../../lib/client-address';

/** Names the audiences a new /api/live/events stream of `user` (null: a visitor) joins; another module's events reach only them. */
export type LiveAudienceResolver = (user: UserRow | null) => Promise<readonly string[]>;

declare module 'fastify' {
  interface FastifyInstance {
    /** Modules that send audience-bound events register here (the chat: the chats the reader may read). */
    liveAudiences: LiveAudienceResolver[];
    /** Live metadata per channel, the Icecast poller and the SSE fan-out. */
    nowPlaying: NowPlaying;
    /** Signs and checks the premium mounts' listener tokens. */
    streamTokens: StreamTokens;
    /** The in-band title readers, one connection per channel mount (started with the background jobs when ICY_TITLES is on). */
    icyTitles: IcyTitles;
  }
}

/** What the metadata routes answer: the track, or 503 while the channel is off air (304 to a matching If-None-Match). */
const METADATA_REPLIES = { 200: liveMetadataReplySchema, 304: noContentReply, 503: errorEnvelopeSchema };

/** The channel GET /api/live-metadata answers for (the spec's home page reads it). */
const DEFAULT_CHANNEL = 'dhr1';
/** An unknown channel re-reads the channel table at most this often (channels are data and may be added). */
const CHANNEL_REFRESH_MS = 5_000;

const routes: FastifyPluginAsyncZod = async (app) => {
  const cookieName = sessionCookieName(app.config.secureCookies);
  const { STATION_GENRE: genre, STATION_COUNTRY: country, STATION_LANGUAGE: language } = app.config;
  const nowPlaying = new NowPlaying(app.database, app.log.child({ module: 'now-playing' }), { genre, country, language });
  app.decorate('nowPlaying', nowPlaying);
  app.decorate('liveAudiences', [] as LiveAudienceResolver[]);
  app.decorate('streamTokens', new StreamTokens(app.config.STREAM_AUTH_KEY));
  const icyTitles = new IcyTitles(nowPlaying, app.streamTokens, app.log.child({ module: 'icy-titles' }));
  app.decorate('icyTitles', icyTitles);
  nowPlaying.onChannels = () => icyTitles.sync();
  nowPlaying.hub.limits = { perAddress: app.config.SSE_MAX_PER_IP, total: app.config.SSE_MAX_TOTAL };

  // What operators watch: connected SSE clients, and each channel's air state and Icecast listeners.
  new Gauge({
    name: 'dhr_sse_clients',
    help: 'Clients connected to /api/live/events on this instance',
    registers: [app.metrics],
    collect() {
      this.set(nowPlaying.hub.size);
    },
  });
  new Gauge({
    name: 'dhr_channel_on_air',
    help: '1 while the channel is on air (its Icecast mount is listed), else 0',
    labelNames: ['channel'] as const,
    registers: [app.metrics],
    collect() {
      for (const id of nowPlaying.channelIds()) this.set({ channel: id }, nowPlaying.state(id)?.online ? 1 : 0);
    },
  });
  new Gauge({
    name: 'dhr_channel_listeners',
    help: "Listeners Icecast reports on the channel's mounts (premium and free) together",
    labelNames: ['channel'] as const,
    registers: [app.metrics],
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
    registers: [app.metrics],
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
    registers: [app.metrics],
    collect() {
      for (const id of nowPlaying.channelIds()) this.set({ channel: id }, nowPlaying.titleReaderConnected(id) ? 1 : 0);
    },
  });

  // A member's streams end when their rights or session change (the database's triggers NOTIFY it,
  // migration 0018): the browser reconnects and the new stream hears what the member may hear now.
  let unlistenMembers: (() => Promise<void>) | undefined;
  app.addHook('onReady', async () => {
    await nowPlaying.init();
    unlistenMembers = await app.database.listen(MEMBER_CHANGED_CHANNEL, (payload) => {
      const match = streamsToEnd(payload);
      if (match) nowPlaying.hub.endStreamsOf(match);
    });
    if (app.config.backgroundJobs) nowPlaying.start(app.config.METADATA_POLL_S * SECOND_MS);
    // Titles within a second of the audio (docs/decisions/0029-one-now-playing-and-icy-timing.md).
    if (app.config.backgroundJobs && app.config.ICY_TITLES === 'on') icyTitles.start();
  });
  app.addHook('onClose', async () => unlistenMembers?.());

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
  // Before the server stops accepting: end the SSE streams so close() does not wait on them.
  app.addHook('preClose', async () => {
    await icyTitles.stop();
    await nowPlaying.stop();
  });

  let lastRefresh = 0;
  /** Resolves a channel id from the URL or answers 404. */
  async function knownChannel(id: string): Promise<string> {
    if (!nowPlaying.channel(id) && Date.now() - lastRefresh > CHANNEL_REFRESH_MS) {
      lastRefresh = Date.now();
      await nowPlaying.refreshChannels();
    }
    if (!nowPlaying.channel(id)) throw notFound(`Unknown channel '${id}'. Channels: ${nowPlaying.channelIds().join(', ')}`, 'unknown_channel');
    return id;
  }
  app.decorate('knownChannel', knownChannel);

  // The players' cache-busting parameters (liveMetadataQuerySchema: t, then nocache) change nothing in
  // the answer; any other query goes to the route and its schema.
  const CACHE_BUSTING_QUERY = /^(t=[\w.-]{1,64})?(&?nocache=\w{1,16})?$/;
  // The per-channel route keeps the legacy anti-cache headers its older clients expect.
  const ANTI_CACHE = { pragma: 'no-cache', expires: '0' } as const;
  function sendMetadata(req: FastifyRequest, reply: FastifyReply, channel: string, antiCache: boolean) {
    const r = nowPlaying.metadataReply(channel);
    reply.header('cache-control', antiCache ? 'no-cache, no-store, must-revalidate' : 'no-cache');
    if (antiCache) reply.headers(ANTI_CACHE);
    reply.type('application/json; charset=utf-8');
    if (r.etag) {
      reply.header('etag', r.etag);
      if (req.headers['if-none-match'] === r.etag) return reply.code(304).send();
    }
    return reply.code(r.status).send(r.body);
  }

  // The same reply as sendMetadata, from memory before routing (plugins/memory-answers.ts), once the
  // channel is known; one answer object per reply (replies are replaced when the metadata changes).
  const answers = { plain: new WeakMap<MetadataReply, MemoryAnswer>(), antiCache: new WeakMap<MetadataReply, MemoryAnswer>() };
  function metadataFromMemory(channel: string | undefined, query: string, antiCache: boolean): MemoryAnswer | undefined {
    if (channel === undefined || !CACHE_BUSTING_QUERY.test(query) || !nowPlaying.channel(channel)) return undefined;
    const r = nowPlaying.metadataReply(channel);
    const memo = antiCache ? answers.antiCache : answers.plain;
    let answer = memo.get(r);
    if (!answer) {
      answer = antiCache
        ? { status: r.status, body: r.body, etag: r.etag, cacheControl: 'no-cache, no-store, must-revalidate', headers: ANTI_CACHE }
        : { status: r.status, body: r.body, etag: r.etag, cacheControl: 'no-cache' };
      memo.set(r, answer);
    }
    return answer;
  }

  // Metadata replies are a few hundred bytes, under the compression threshold: no negotiation per request.
  app.get(
    '/api/live-metadata',
    {
      config: { access: access.public, sharedAnswer: true, cors: 'public', fromMemory: (_p, query) => metadataFromMemory(DEFAULT_CHANNEL, query, false) },
      compress: false,
      schema: { summary: 'What every channel plays now', querystring: liveMetadataQuerySchema, response: METADATA_REPLIES },
    },
    async (req, reply) => sendMetadata(req, reply, await knownChannel(DEFAULT_CHANNEL), false),
  );

  app.get(
    '/api/live-metadata/:channel',
    {
      config: { access: access.public, sharedAnswer: true, cors: 'public', fromMemory: (params, query) => metadataFromMemory(params.channel, query, true) },
      compress: false,
      schema: { summary: 'What a channel plays now', params: channelParamsSchema, querystring: liveMetadataQuerySchema, response: METADATA_REPLIES },
    },
    async (req, reply) => sendMetadata(req, reply, await knownChannel(req.params.channel), true),
  );

  app.get(
    '/api/live/events',
    {
      // Other sites may read the public events; a cross-origin stream is a visitor's (plugins/cors.ts).
      config: { access: access.public, sharedAnswer: true, cors: 'public' },
      schema: {
        summary: 'Now-playing changes as server-sent events',
        querystring: z.object({ lastEventId: textField(32).optional() }),
        response: {
          200: mediaReply('text/event-stream', 'Server-Sent Events: `now-playing` with each change (and every channel on connect).'),
          503: mediaReply('text/event-stream', 'Too many live connections: a `retry:` and an `error` event, with Retry-After.'),
        },
      },
    },
    async (req, reply) => {
      const header = req.headers['last-event-id'];
      const raw = (Array.isArray(header) ? header[0] : header) ?? req.query.lastEventId;
      const lastId = raw !== undefined && /^\d{1,16}$/.test(raw.trim()) ? Number(raw.trim()) : undefined;
      // Counted per client as the rate limits count them: IPv6 by its /64 (one line holds a whole /64).
      const client = clientBucket(req.ip);
      // Each stream holds a socket for hours: beyond the caps, the client is told when to come back,
      // in HTTP (Retry-After) and in SSE (`retry:`), with the error envelope as the event's data.
      const refuse = () => {
        const message = 'Too many live connections right now. Please try again shortly.';
        const envelope = JSON.stringify({ error: { code: 'too_many_streams', message }, message });
        return reply
          .code(503)
          .header('retry-after', String(SSE_RETRY_AFTER_S))
          .header('cache-control', 'no-store')
          .type('text/event-stream; charset=utf-8')
          .send(`retry: ${SSE_RETRY_AFTER_S * 1000}\nevent: error\ndata: ${envelope}\n\n`);
      };
      if (!nowPlaying.hub.admits(client)) return refuse();
      // Whose stream this is, from the session (never the URL); a lookup or resolver that fails (the
      // database away) only leaves the member's audiences out: the stream still opens.
      const token = req.cookies[cookieName];
      const session = token && token.length <= 128 ? await findSessionUser(app.database.db, token).catch(() => null) : null;
      const user = session?.user ?? null;
      const audiences = new Set((await Promise.all(app.liveAudiences.map((resolve) => resolve(user).catch(() => [])))).flat());
      // Checked again after the wait, with nothing awaited until the stream joins the hub: parallel
      // connections from one client cannot all pass the first check.
      if (!nowPlaying.hub.admits(client)) return refuse();
      reply.hijack();
      const res = reply.raw;
      // The reader may have left while the audiences were looked up: a closed socket never joins the hub.
      if (req.raw.socket.destroyed) return;
      res.writeHead(200, {
        // The headers set so far (CORS): the stream bypasses the reply hooks.
        ...(reply.getHeaders() as Record<string, string>),
        'content-type': 'text/event-stream; charset=utf-8',
        // no-store: the stream may be opened with a member's cookie (member data is never cached).
        'cache-control': 'no-cache, no-store, no-transform',
        connection: 'keep-alive',
        // nginx and similar proxies must not buffer the stream.
        'x-accel-buffering': 'no',
        // The stream bypasses the reply hooks that set security headers; this one matters for a text body.
        'x-content-type-options': 'nosniff',
      });
      // An injected request (tests) has no socket options to set.
      req.raw.socket.setNoDelay?.(true);
      res.write(`retry: 3000\n\n${nowPlaying.framesSince(lastId)}`);
      nowPlaying.hub.add(res, client, audiences, session ? { userId: session.user.id, sessionHash: session.idHash } : null);
    },
  );
};

export const radioRoutes = fp(routes, { name: 'radio' });

declare module 'fastify' {
  interface FastifyInstance {
    /** Returns the channel id when it names a channel, else throws the 404 "Unknown channel". */
    knownChannel(id: string): Promise<string>;
  }
}
