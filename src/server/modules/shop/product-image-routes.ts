import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IMAGE_MAX_BYTES, IMAGE_MESSAGES } from '../../../contracts/images';
import { mediaImagePath } from '../../../contracts/media';
import { imageUploadReplySchema } from '../../../contracts/shop';
import { badRequest } from '../../lib/errors';
import { processImage } from '../../lib/images';
import { enforceRateLimit, RATE_RULES } from '../../lib/rate-limit';
import { access } from '../../plugins/access';
import { imageKey } from '../media/media-routes';

/** Room for the multipart envelope around a 5 MB file; a bigger body is refused before it is read whole. */
const UPLOAD_BODY_LIMIT = IMAGE_MAX_BYTES + 2 * 1024 * 1024;

/**
 * POST /api/admin/shop/upload-image (spec §7): multipart field `image`, under 5 MB, recognised by its
 * bytes and re-encoded by the image pipeline (src/server/lib/images.ts, metadata dropped), stored by
 * the media storage driver (local files or S3) under its content hash and served from /media/images.
 * Multipart is read by the platform's FormData parser, in this plugin's scope only; the admin policy
 * refuses everyone else before the body is read.
 */
export const productImageRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addContentTypeParser('multipart/form-data', { parseAs: 'buffer', bodyLimit: UPLOAD_BODY_LIMIT }, (_req, body, done) => done(null, body));

  app.post(
    '/api/admin/shop/upload-image',
    {
      config: { access: access.admin },
      // Counted before the body is read: a refused upload costs no 5 MB read.
      onRequest: async (req) => enforceRateLimit(app.database.db, req, RATE_RULES.imageUpload),
      bodyLimit: UPLOAD_BODY_LIMIT,
      schema: { response: { 200: imageUploadReplySchema } },
    },
    async (req) => {
      const contentType = req.headers['content-type'] ?? '';
      if (!Buffer.isBuffer(req.body) || !contentType.startsWith('multipart/form-data')) throw badRequest(IMAGE_MESSAGES.missing, 'image_missing');
      let file: FormDataEntryValue | null;
      try {
        file = (await new Response(new Uint8Array(req.body), { headers: { 'content-type': contentType } }).formData()).get('image');
      } catch {
        throw badRequest(IMAGE_MESSAGES.missing, 'image_missing');
      }
      if (!file || typeof file === 'string') throw badRequest(IMAGE_MESSAGES.missing, 'image_missing');
      const image = await processImage(Buffer.from(await file.arrayBuffer()), 'product');
      await app.mediaStorage.put(imageKey(image.name), Readable.from([image.bytes]), { contentType: image.contentType, maxBytes: IMAGE_MAX_BYTES });
      return { imageUrl: mediaImagePath(image.name) };
    },
  );
};
