import fp from 'fastify-plugin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  azuraNowPlayingListSchema,
  azuraStationNowPlayingSchema,
  nowPlayingShortcodeParamsSchema,
  type AzuraStationNowPlaying,
} from '../../../contracts/nowplaying';
import { SECOND_MS } from '../../../contracts/time';
import { notFound } from '../../lib/errors';
import { access } from '../../plugins/access';
import type { FromMemory, MemoryAnswer } from '../../plugins/memory-answers';
import { mediaReply, preSerializedJson } from '../../plugins/reply-schemas';
import { freeMountPlaylist, toAzuraNowPlaying } from './azuracast-view';

/** Widgets poll; `elapsed` moves with the clock, so an answer is rebuilt once a second, and at once when a title changes. */
const CACHE_CONTROL = 'public, max-age=5';
/** Widgets on other sites read these with fetch(): no credentials, so any origin may. */
const CORS = { 'access-control-allow-origin': '*' } as const;

/**
 * The radio ecosystem's now-playing API (AzuraCast's shape, contracts/nowplaying.ts), answered from the
 * in-memory now-playing state, and .pls/.m3u playlists of each channel's free mount.
 */
const routes: FastifyPluginAsyncZod = async (app) => {
  const { nowPlaying } = app;
  let built: { second: number; version: number; all: MemoryAnswer; byChannel: Map<string, MemoryAnswer> } | undefined;

  /** Every channel's document, built from memory at most once a second, or after a change (a new title shows at once). */
  function answers(): NonNullable<typeof built> {
    const now = Date.now();
    const second = Math.floor(now / SECOND_MS);
    const version = nowPlaying.version;
    if (built?.second === second && built.version === version) return built;
    const docs = nowPlaying.channelIds().flatMap((id, i) => {
      const channel = nowPlaying.channel(id);
      if (!channel) return [];
      return [toAzuraNowPlaying({ channel, stationId: i + 1, state: nowPlaying.state(id), songs: nowPlaying.playedSongs(id) }, app.config.PUBLIC_URL, now)];
    });
    const answer = (body: unknown): MemoryAnswer => ({ body: JSON.stringify(body), cacheControl: CACHE_CONTROL, headers: CORS });
    built = { second, version, all: answer(docs), byChannel: new Map(docs.map((d) => [d.station.shortcode, answer(d)])) };
    return built;
  }

  const listFromMemory: FromMemory = (_params, query) => (query === '' ? answers().all : undefined);
  const channelFromMemory: FromMemory = (params, query) => (query === '' && params.shortcode ? answers().byChannel.get(params.shortcode) : undefined);

  app.get(
    '/api/nowplaying',
    { config: { access: access.public, sharedAnswer: true, fromMemory: listFromMemory }, schema: { response: { 200: azuraNowPlayingListSchema } } },
    async (_req, reply) => {
      reply.header('cache-control', CACHE_CONTROL).headers(CORS).type('application/json; charset=utf-8');
      return preSerializedJson<AzuraStationNowPlaying[]>(answers().all.body);
    },
  );

  app.get(
    '/api/nowplaying/:shortcode',
    {
      config: { access: access.public, sharedAnswer: true, fromMemory: channelFromMemory },
      schema: { params: nowPlayingShortcodeParamsSchema, response: { 200: azuraStationNowPlayingSchema } },
    },
    async (req, reply) => {
      const id = await app.knownChannel(req.params.shortcode);
      const answer = answers().byChannel.get(id);
      if (!answer) throw notFound(`Unknown channel '${id}'`, 'unknown_channel');
      reply.header('cache-control', CACHE_CONTROL).headers(CORS).type('application/json; charset=utf-8');
      return preSerializedJson<AzuraStationNowPlaying>(answer.body);
    },
  );

  for (const kind of ['pls', 'm3u'] as const) {
    app.get(
      `/api/nowplaying/:shortcode/playlist.${kind}`,
      {
        config: { access: access.public, sharedAnswer: true },
        schema: {
          params: nowPlayingShortcodeParamsSchema,
          response: { 200: mediaReply(kind === 'pls' ? 'audio/x-scpls' : 'audio/x-mpegurl', `The free mount as a .${kind} playlist.`) },
        },
      },
      async (req, reply) => {
        const id = await app.knownChannel(req.params.shortcode);
        const channel = nowPlaying.channel(id);
        const playlist = channel ? freeMountPlaylist(channel, kind) : null;
        if (!playlist) throw notFound(`${channel?.name ?? id} has no free stream: members listen on the channel's page.`, 'no_free_stream');
        return reply
          .header('cache-control', 'public, max-age=300')
          .headers(CORS)
          .header('content-disposition', `inline; filename="${id}.${kind}"`)
          .type(kind === 'pls' ? 'audio/x-scpls' : 'audio/x-mpegurl')
          .send(playlist);
      },
    );
  }
};

export const nowPlayingApiRoutes = fp(routes, { name: 'nowplaying-api', dependencies: ['radio'] });
