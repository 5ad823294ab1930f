import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { imageNameSchema } from '../../../contracts/media';
import { MediaNotFoundError } from '../../lib/storage/media-storage';
import { access } from '../../plugins/access';
import { mediaReply, noContentReply } from '../../plugins/reply-schemas';

/** The storage key of a stored image named `name` (a content hash and an extension, see contracts/media.ts). */
export function imageKey(name: string): string {
  return `images/${name}`;
}

/**
 * Public images from media storage. Names are content hashes, so an answer never changes:
 * browsers and proxies keep it for a year and revalidation is a name compare.
 */
export const mediaRoutes: FastifyPluginAsyncZod = async (app) => {
  const storage = app.mediaStorage;
  app.get(
    '/media/images/:name',
    {
      config: { access: access.public, sharedAnswer: true },
      // Images are already compressed.
      compress: false,
      schema: {
        summary: 'An uploaded image',
        params: z.object({ name: imageNameSchema }),
        response: { 200: mediaReply('image/*', 'The image.'), 304: noContentReply },
      },
    },
    async (req, reply) => {
      const { name } = req.params;
      const key = imageKey(name);
      const stat = await storage.stat(key);
      if (!stat) throw new MediaNotFoundError();
      const etag = `"${name}"`;
      reply.header('cache-control', 'public, max-age=31536000, immutable').header('etag', etag);
      if (req.headers['if-none-match'] === etag) return reply.status(304).send();
      const body = await storage.open(key);
      return reply.type(stat.contentType).header('content-length', stat.size).send(body);
    },
  );
};
