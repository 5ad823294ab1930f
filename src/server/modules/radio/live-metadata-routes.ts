import fp from 'fastify-plugin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorEnvelopeSchema } from '../../../contracts/errors';
import { channelParamsSchema, liveMetadataQuerySchema, liveMetadataReplySchema, type LiveMetadataReply } from '../../../contracts/radio';
import { access } from '../../plugins/access';
import { sendAnswer, type MemoryAnswer } from '../../plugins/memory-answers';
import { noContentReply } from '../../plugins/reply-schemas';
import type { MetadataReply, NowPlaying } from './now-playing';

/** What the metadata routes answer: the track, or 503 while the channel is off air (304 to a matching If-None-Match). */
const METADATA_REPLIES = { 200: liveMetadataReplySchema, 304: noContentReply, 503: errorEnvelopeSchema };

/** The channel GET /api/live-metadata answers for (the spec's home page reads it). */
const DEFAULT_CHANNEL = 'dhr1';

/** GET /api/live-metadata(/:channel): what a channel plays now, from the now-playing state in memory. */
const routes: FastifyPluginAsyncZod<{ nowPlaying: NowPlaying }> = async (app, { nowPlaying }) => {
  const knownChannel = (id: string) => nowPlaying.knownChannel(id);

  // The players' cache-busting parameters (liveMetadataQuerySchema: t, then nocache) change nothing in
  // the answer; any other query goes to the route and its schema.
  const CACHE_BUSTING_QUERY = /^(t=[\w.-]{1,64})?(&?nocache=\w{1,16})?$/;
  // The per-channel route keeps the legacy anti-cache headers its older clients expect.
  const ANTI_CACHE = { pragma: 'no-cache', expires: '0' } as const;
  // One answer object per reply (replies are replaced when the metadata changes), sent by the route
  // (sendAnswer) and, once the channel is known, from memory before routing (plugins/memory-answers.ts).
  const answers = { plain: new WeakMap<MetadataReply, MemoryAnswer>(), antiCache: new WeakMap<MetadataReply, MemoryAnswer>() };
  function metadataAnswer(channel: string, antiCache: boolean): MemoryAnswer {
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
  function metadataFromMemory(channel: string | undefined, query: string, antiCache: boolean): MemoryAnswer | undefined {
    if (channel === undefined || !CACHE_BUSTING_QUERY.test(query) || !nowPlaying.channel(channel)) return undefined;
    return metadataAnswer(channel, antiCache);
  }

  // Metadata replies are a few hundred bytes, under the compression threshold: no negotiation per request.
  app.get(
    '/api/live-metadata',
    {
      config: { access: access.public, sharedAnswer: true, cors: 'public', fromMemory: (_p, query) => metadataFromMemory(DEFAULT_CHANNEL, query, false) },
      compress: false,
      schema: { summary: 'What every channel plays now', querystring: liveMetadataQuerySchema, response: METADATA_REPLIES },
    },
    async (req, reply) => sendAnswer<LiveMetadataReply>(req, reply, metadataAnswer(await knownChannel(DEFAULT_CHANNEL), false)),
  );

  app.get(
    '/api/live-metadata/:channel',
    {
      config: { access: access.public, sharedAnswer: true, cors: 'public', fromMemory: (params, query) => metadataFromMemory(params.channel, query, true) },
      compress: false,
      schema: { summary: 'What a channel plays now', params: channelParamsSchema, querystring: liveMetadataQuerySchema, response: METADATA_REPLIES },
    },
    async (req, reply) => sendAnswer<LiveMetadataReply>(req, reply, metadataAnswer(await knownChannel(req.params.channel), true)),
  );
};

export const liveMetadataRoutes = fp(routes, { name: 'live-metadata' });
