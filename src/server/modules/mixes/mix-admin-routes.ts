import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  MIX_MESSAGES,
  MIX_PREVIEW_MAX_BYTES,
  adminVipMixListSchema,
  adminVipMixSchema,
  mixDetailsSchema,
  mixIdParamsSchema,
  mixPreviewFieldsSchema,
  mixTagsSchema,
  updateMixLinkSchema,
  updateMixSchema,
} from '../../../contracts/mixes';
import { AppError, badRequest } from '../../lib/errors';
import { access } from '../../plugins/access';
import { deleteMixAndFile, retryRendition, setMixArtwork, setMixLink, updateMixDetails } from './mix-admin-service';
import { drain, readCapped, readImageForm, registerUploads, uploadParts } from '../../lib/uploads';
import { previewTags, uploadMix } from './mix-upload-service';
import { toAdminVipMix } from './mix-views';
import { listMixes } from './mixes-repository';
import { noContentReply } from '../../plugins/reply-schemas';
import { multipartRequest } from '../../plugins/request-bodies';
import { errorEnvelopeSchema } from '../../../contracts/errors';
import { IMAGE_ACCEPTED_TYPES } from '../../../contracts/images';

const MB = 1024 * 1024;

/** Admin side of the VIP library: list with storage links, upload, edit, link, delete (ADR 0015). */
export const mixAdminRoutes: FastifyPluginAsyncZod<{ announceChange: () => Promise<void>; renderInBackground: () => void }> = async (app, opts) => {
  const { db } = app.database;
  const storage = app.mediaStorage;
  const maxBytes = app.config.MIX_MAX_MB * MB;
  const admin = { access: access.admin };

  // The one streaming upload path, in this scope only. The storage enforces MIX_MAX_MB with its own
  // message; the multipart reader's limit sits just above it as a backstop.
  await registerUploads(app, { maxFileBytes: maxBytes, files: 2, fields: 10 });

  app.get(
    '/api/admin/vip-mixes',
    { config: admin, schema: { summary: 'List the VIP mixes, hidden ones included', response: { 200: adminVipMixListSchema } } },
    async () => (await listMixes(db)).map(toAdminVipMix),
  );

  app.post(
    '/api/admin/vip-mixes',
    {
      config: {
        ...admin,
        multipartFields: mixDetailsSchema,
        documentedRequest: multipartRequest(
          'The mix file, its details and an optional artwork picture.',
          {
            file: { description: 'The audio file (its type is read from its bytes).', mediaTypes: 'audio/*' },
            artwork: { description: "A picture for the mix; else the file's embedded artwork.", mediaTypes: IMAGE_ACCEPTED_TYPES.join(', '), required: false },
          },
          mixDetailsSchema,
        ),
      },
      schema: { summary: 'Upload a VIP mix in one request', response: { 201: adminVipMixSchema } },
    },
    async (req, reply) => {
      if (!req.isMultipart())
        throw new AppError(415, 'unsupported_media_type', 'Send the mix as multipart/form-data (file, title, artist, genre, description, artwork)');
      const row = await uploadMix({ db, storage, maxBytes, warn: (m) => app.log.warn(m) }, uploadParts(req));
      await opts.announceChange();
      opts.renderInBackground();
      return reply.status(201).send(toAdminVipMix(row));
    },
  );

  app.patch(
    '/api/admin/vip-mixes/:id',
    { config: admin, schema: { summary: "Edit a VIP mix's details", params: mixIdParamsSchema, body: updateMixSchema, response: { 200: adminVipMixSchema } } },
    async (req) => {
      const row = await updateMixDetails(db, req.params.id, req.body);
      await opts.announceChange();
      return toAdminVipMix(row);
    },
  );

  const artworkForm = multipartRequest('The new artwork.', {
    artwork: { description: 'The picture, under 5 MB (its type is read from its bytes).', mediaTypes: IMAGE_ACCEPTED_TYPES.join(', ') },
  });
  const artworkSchema = { summary: "Replace a VIP mix's artwork", params: mixIdParamsSchema, response: { 200: adminVipMixSchema } };
  app.put('/api/admin/vip-mixes/:id/artwork', { config: { ...admin, documentedRequest: artworkForm }, schema: artworkSchema }, async (req) => {
    const { image } = await readImageForm(req, 'artwork');
    const row = await setMixArtwork(db, storage, req.params.id, image);
    await opts.announceChange();
    return toAdminVipMix(row);
  });

  previewRoute(app);

  // 'Edit Links' on /vip-admin.
  app.patch(
    '/api/vip-mixes/:id',
    {
      config: admin,
      schema: { summary: "Set a VIP mix's file link (Edit Links)", params: mixIdParamsSchema, body: updateMixLinkSchema, response: { 200: adminVipMixSchema } },
    },
    async (req) => {
      const row = await setMixLink(db, storage, req.params.id, req.body.s3Url || null);
      await opts.announceChange();
      opts.renderInBackground();
      return toAdminVipMix(row);
    },
  );

  // 'Retry' beside a failed listening copy: queued again, attempts from zero.
  app.post(
    '/api/admin/vip-mixes/:id/rendition',
    {
      config: admin,
      schema: { summary: "Make a VIP mix's listening copy again", params: mixIdParamsSchema, response: { 200: adminVipMixSchema, 409: errorEnvelopeSchema } },
    },
    async (req) => {
      const row = await retryRendition(db, req.params.id);
      await opts.announceChange();
      opts.renderInBackground();
      return toAdminVipMix(row);
    },
  );

  app.delete(
    '/api/admin/vip-mixes/:id',
    { config: admin, schema: { summary: 'Delete a VIP mix and its file', params: mixIdParamsSchema, response: { 204: noContentReply } } },
    async (req, reply) => {
      await deleteMixAndFile(db, storage, req.params.id);
      await opts.announceChange();
      return reply.status(204).send();
    },
  );
};

/** The upload form sends the first megabyte of the chosen file: its tags fill in the empty fields. */
function previewRoute(app: Parameters<FastifyPluginAsyncZod>[0]): void {
  const admin = { access: access.admin };
  app.post(
    '/api/admin/vip-mixes/preview',
    {
      config: {
        ...admin,
        multipartFields: mixPreviewFieldsSchema,
        documentedRequest: multipartRequest(
          'The first megabyte of the chosen file, and its whole size.',
          { file: { description: 'The start of the audio file (at most 1 MB).', mediaTypes: 'audio/*' } },
          mixPreviewFieldsSchema,
        ),
      },
      schema: { summary: 'Read the tags of a mix file before uploading it', response: { 200: mixTagsSchema } },
    },
    async (req) => {
      if (!req.isMultipart()) throw badRequest(MIX_MESSAGES.fileRequired, 'file_required');
      const fields: Record<string, string> = {};
      let head: Buffer | undefined;
      try {
        for await (const part of uploadParts(req)) {
          if (part.kind === 'field') fields[part.name] = part.value;
          else if (part.name === 'file' && !head)
            head = await readCapped(part.stream, MIX_PREVIEW_MAX_BYTES, () => new AppError(413, 'preview_too_large', MIX_MESSAGES.previewTooLarge));
          else await drain(part.stream);
        }
      } catch (err) {
        if (err instanceof AppError) throw err;
        // A broken or truncated multipart body: there is no file to read.
        throw badRequest(MIX_MESSAGES.fileRequired, 'file_required');
      }
      if (!head?.length) throw badRequest(MIX_MESSAGES.fileRequired, 'file_required');
      const size = mixPreviewFieldsSchema.safeParse(fields);
      return previewTags(head, size.success ? size.data.size : undefined);
    },
  );
}
