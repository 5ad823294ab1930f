import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { channelListSchema, type Channel } from '../../../contracts/channels';
import { CachedRead } from '../../lib/cached-read';
import { access } from '../../plugins/access';
import { sendAnswer, type FromMemory, type MemoryAnswer } from '../../plugins/memory-answers';
import { listChannels, toPublicChannel } from './channels-repository';

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
    async (req, reply) => sendAnswer<Channel[]>(req, reply, await channelList.get()),
  );
};
