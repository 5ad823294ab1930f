import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IMAGE_KINDS, type ImageKind, uploadImageResponseSchema } from '../../../contracts/community';
import { IMAGE_MAX_BYTES, IMAGE_MESSAGES } from '../../../contracts/images';
import { mediaImagePath } from '../../../contracts/media';
import { badRequest } from '../../lib/errors';
import { processImage, type ImagePreset, type ProcessedImage } from '../../lib/images';
import { enforceRateLimit, RATE_RULES } from '../../lib/rate-limit';
import type { MediaStorage } from '../../lib/storage/media-storage';
import { access } from '../../plugins/access';
import { imageKey } from '../media/media-routes';

const PRESET_FOR: Record<ImageKind, ImagePreset> = { profile: 'avatar', banner: 'banner' };
/** Room for the multipart envelope around a 5 MB file; a bigger body is refused before it is read whole. */
const UPLOAD_BODY_LIMIT = IMAGE_MAX_BYTES + 2 * 1024 * 1024;

/** Keeps a processed image in media storage (`images/<hash>.<ext>`) and answers its public path. */
export async function storeImage(storage: MediaStorage, image: ProcessedImage): Promise<string> {
  await storage.put(imageKey(image.name), Readable.from([image.bytes]), { contentType: image.contentType, maxBytes: IMAGE_MAX_BYTES });
  return mediaImagePath(image.name);
}

/**
 * POST /api/users/upload-image (spec §7): multipart fields `image` and `type` (profile | banner).
 * Multipart is parsed by the platform's own FormData parser (the Fetch API's), in this plugin's scope
 * only; the access policy refuses visitors before the body is read.
 */
export const imageUploadRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addContentTypeParser('multipart/form-data', { parseAs: 'buffer', bodyLimit: UPLOAD_BODY_LIMIT }, (_req, body, done) => done(null, body));

  app.post(
    '/api/users/upload-image',
    {
      config: { access: access.member },
      // Counted before the body is read: a refused upload costs no 5 MB read.
      onRequest: async (req) => enforceRateLimit(app.database.db, req, RATE_RULES.imageUpload),
      bodyLimit: UPLOAD_BODY_LIMIT,
      schema: { response: { 200: uploadImageResponseSchema } },
    },
    async (req) => {
      const contentType = req.headers['content-type'] ?? '';
      if (!Buffer.isBuffer(req.body) || !contentType.startsWith('multipart/form-data')) throw badRequest(IMAGE_MESSAGES.missing, 'image_missing');
      let form: FormData;
      try {
        form = await new Response(new Uint8Array(req.body), { headers: { 'content-type': contentType } }).formData();
      } catch {
        throw badRequest(IMAGE_MESSAGES.missing, 'image_missing');
      }
      const kind = form.get('type');
      if (typeof kind !== 'string' || !(IMAGE_KINDS as readonly string[]).includes(kind)) throw badRequest("Field 'type' must be profile or banner", 'bad_type');
      const file = form.get('image');
      if (!file || typeof file === 'string') throw badRequest(IMAGE_MESSAGES.missing, 'image_missing');
      const image = await processImage(Buffer.from(await file.arrayBuffer()), PRESET_FOR[kind as ImageKind]);
      return { imageUrl: await storeImage(app.mediaStorage, image) };
    },
  );
};
