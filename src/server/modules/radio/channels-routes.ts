import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { channelListSchema, type Channel } from '../../../contracts/channels';
import { CachedRead } from '../../lib/cached-read';
import { access } from '../../plugins/access';
import type { FromMemory, MemoryAnswer } from '../../plugins/memory-answers';
import { listChannels, toPublicChannel } from './channels-repository';
import { preSerializedJson } from '../../plugins/reply-schemas';

/** How long the channel list is served from memory before it is read again. */
const CACHE_MS = 30_000;
const CACHE_CONTROL = 'public, max-age=30';

export const channelsRoutes: FastifyPluginAsyncZod = async (app) => {
  const channelList = new CachedRead<void, MemoryAnswer>({
    load: async () => {
      const list: Channel[] = (await listChannels(app.database.db)).map(toPublicChannel);
      return { body: JSON.stringify(channelListSchema.parse(list)), cacheControl: CACHE_CONTROL };
    },
    maxAgeMs: CACHE_MS,
    // The database is away: the last list read is still the best answer (channels rarely change).
    lastValueWhileDatabaseAway: true,
  });

  // The list is a few hundred bytes, under the compression threshold: no negotiation per request.
  const fromMemory: FromMemory = (_params, query) => (query === '' ? channelList.peek() : undefined);
  app.get(
    '/api/channels',
    {
      config: { access: access.public, sharedAnswer: true, fromMemory },
      compress: false,
      schema: { summary: 'The radio channels', response: { 200: channelListSchema } },
    },
    async (_req, reply) => {
      reply.header('cache-control', CACHE_CONTROL).type('application/json; charset=utf-8');
      return preSerializedJson<Channel[]>((await channelList.get()).body);
    },
  );
};
