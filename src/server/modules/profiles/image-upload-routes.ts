import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IMAGE_KINDS, type ImageKind, uploadImageResponseSchema } from '../../../contracts/community';
import { IMAGE_MAX_BYTES, IMAGE_MESSAGES } from '../../../contracts/images';
import { badRequest } from '../../lib/errors';
import { processImage, type ImagePreset, type ProcessedImage } from '../../lib/images';
import { enforceRateLimit, RATE_RULES } from '../../lib/rate-limit';
import { access } from '../../plugins/access';

const PRESET_FOR: Record<ImageKind, ImagePreset> = { profile: 'avatar', banner: 'banner' };
/** Room for the multipart envelope around a 5 MB file; a bigger body is refused before it is read whole. */
const UPLOAD_BODY_LIMIT = IMAGE_MAX_BYTES + 2 * 1024 * 1024;

/** Where uploaded images live until the media storage layer takes them: DATA_DIR/media/images/<hash>.<ext>. */
export async function storeImage(dataDir: string, image: ProcessedImage): Promise<string> {
  const dir = path.join(dataDir, 'media', 'images');
  await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(path.join(dir, image.name), image.bytes);
  return `/media/images/${image.name}`;
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
    { config: { access: access.member }, bodyLimit: UPLOAD_BODY_LIMIT, schema: { response: { 200: uploadImageResponseSchema } } },
    async (req) => {
      await enforceRateLimit(app.database.db, req, RATE_RULES.imageUpload);
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
      return { imageUrl: await storeImage(app.config.dataDir, image) };
    },
  );
};
