import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IMAGE_KINDS, type ImageKind, uploadImageResponseSchema } from '../../../contracts/community';
import { IMAGE_ACCEPTED_TYPES, IMAGE_MAX_BYTES } from '../../../contracts/images';
import { badRequest } from '../../lib/errors';
import type { ImagePreset } from '../../lib/images';
import { enforceRateLimit, RATE_RULES } from '../../lib/rate-limit';
import { readImageForm, registerUploads, storeImageUpload } from '../../lib/uploads';
import { access } from '../../plugins/access';
import { multipartRequest } from '../../plugins/request-bodies';

const PRESET_FOR: Record<ImageKind, ImagePreset> = { profile: 'avatar', banner: 'banner' };

const isImageKind = (kind: string | undefined): kind is ImageKind => (IMAGE_KINDS as readonly (string | undefined)[]).includes(kind);

/**
 * POST /api/users/upload-image: multipart fields `image` and `type` (profile | banner), read by the
 * one streaming upload path (lib/uploads.ts) in this plugin's scope only; the access policy refuses
 * visitors before the body is read.
 */
export const imageUploadRoutes: FastifyPluginAsyncZod = async (app) => {
  await registerUploads(app, { maxFileBytes: IMAGE_MAX_BYTES, files: 2, fields: 5 });

  app.post(
    '/api/users/upload-image',
    {
      config: {
        access: access.member,
        documentedRequest: multipartRequest(
          'The picture and what it is for.',
          { image: { description: 'The picture, under 5 MB (its type is read from its bytes).', mediaTypes: IMAGE_ACCEPTED_TYPES.join(', ') } },
          z.object({ type: z.enum(IMAGE_KINDS) }),
        ),
      },
      // Counted before the body is read: a refused upload costs no 5 MB read.
      onRequest: async (req) => enforceRateLimit(app.database.db, req, RATE_RULES.imageUpload),
      schema: { summary: 'Upload my profile picture or banner', response: { 200: uploadImageResponseSchema } },
    },
    async (req) => {
      const { fields, image } = await readImageForm(req, 'image', (f) => {
        if (!isImageKind(f.type)) throw badRequest("Field 'type' must be profile or banner", 'bad_type');
      });
      const kind = fields.type as ImageKind;
      return { imageUrl: await storeImageUpload(app.mediaStorage, image, PRESET_FOR[kind]) };
    },
  );
};
