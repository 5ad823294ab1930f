import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IMAGE_ACCEPTED_TYPES, IMAGE_MAX_BYTES } from '../../../contracts/images';
import { imageUploadReplySchema } from '../../../contracts/shop';
import { enforceRateLimit, RATE_RULES } from '../../lib/rate-limit';
import { readImageForm, registerUploads, storeImageUpload } from '../../lib/uploads';
import { access } from '../../plugins/access';
import { multipartRequest } from '../../plugins/request-bodies';

/**
 * POST /api/admin/shop/upload-image: multipart field `image`, under 5 MB, read by the one streaming
 * upload path (lib/uploads.ts: capped while it streams, recognised by its bytes, re-encoded by the
 * image pipeline with its metadata dropped), stored by the media storage driver (local files or S3)
 * under its content hash and served from /media/images. The admin policy refuses everyone else
 * before the body is read.
 */
export const productImageRoutes: FastifyPluginAsyncZod = async (app) => {
  await registerUploads(app, { maxFileBytes: IMAGE_MAX_BYTES, files: 2, fields: 5 });

  app.post(
    '/api/admin/shop/upload-image',
    {
      config: {
        access: access.admin,
        documentedRequest: multipartRequest('The product picture.', {
          image: { description: 'The picture, under 5 MB (its type is read from its bytes).', mediaTypes: IMAGE_ACCEPTED_TYPES.join(', ') },
        }),
      },
      // Counted before the body is read: a refused upload costs no 5 MB read.
      onRequest: async (req) => enforceRateLimit(app.database.db, req, RATE_RULES.imageUpload),
      schema: { summary: 'Upload a product picture', response: { 200: imageUploadReplySchema } },
    },
    async (req) => {
      const { image } = await readImageForm(req, 'image');
      return { imageUrl: await storeImageUpload(app.mediaStorage, image, 'product') };
    },
  );
};
