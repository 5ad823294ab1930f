import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { channelListSchema, type Channel } from '../../../contracts/channels';
import { isDatabaseUnavailable } from '../../db/unavailable';
import { access } from '../../plugins/access';
import type { FromMemory, MemoryAnswer } from '../../plugins/memory-answers';
import { listChannels, toPublicChannel } from './channels-repository';
import { preSerializedJson } from '../../plugins/reply-schemas';

/** How long the channel list is served from memory before it is read again. */
const CACHE_MS = 30_000;
const CACHE_CONTROL = 'public, max-age=30';

export const channelsRoutes: FastifyPluginAsyncZod = async (app) => {
  let cached: { at: number; body: string; answer: MemoryAnswer } | undefined;

  async function channelListJson(): Promise<string> {
    if (cached && Date.now() - cached.at < CACHE_MS) return cached.body;
    let rows;
    try {
      rows = await listChannels(app.database.db);
    } catch (err) {
      // The database is away: the last list read is still the best answer (channels rarely change).
      if (cached && isDatabaseUnavailable(err)) return cached.body;
      throw err;
    }
    const list: Channel[] = rows.map(toPublicChannel);
    const body = JSON.stringify(channelListSchema.parse(list));
    cached = { at: Date.now(), body, answer: { body, cacheControl: CACHE_CONTROL } };
    return cached.body;
  }

  // The list is a few hundred bytes, under the compression threshold: no negotiation per request.
  const fromMemory: FromMemory = (_params, query) => (query === '' && cached && Date.now() - cached.at < CACHE_MS ? cached.answer : undefined);
  app.get(
    '/api/channels',
    { config: { access: access.public, sharedAnswer: true, fromMemory }, compress: false, schema: { response: { 200: channelListSchema } } },
    async (_req, reply) => {
      reply.header('cache-control', CACHE_CONTROL).type('application/json; charset=utf-8');
      return preSerializedJson<Channel[]>(await channelListJson());
    },
  );
};
