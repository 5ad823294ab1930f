import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminVipMixListSchema, adminVipMixSchema, mixDetailsSchema, mixIdParamsSchema, updateMixLinkSchema, updateMixSchema } from '../../../contracts/mixes';
import { AppError } from '../../lib/errors';
import { access } from '../../plugins/access';
import { deleteMixAndFile, retryRendition, setMixLink, updateMixDetails } from './mix-admin-service';
import { registerUploads, uploadParts } from '../../lib/uploads';
import { uploadMix } from './mix-upload-service';
import { toAdminVipMix } from './mix-views';
import { listMixes } from './mixes-repository';
import { noContentReply } from '../../plugins/reply-schemas';
import { errorEnvelopeSchema } from '../../../contracts/errors';

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

  app.get('/api/admin/vip-mixes', { config: admin, schema: { response: { 200: adminVipMixListSchema } } }, async () =>
    (await listMixes(db)).map(toAdminVipMix),
  );

  app.post(
    '/api/admin/vip-mixes',
    { config: { ...admin, multipartFields: mixDetailsSchema }, schema: { response: { 201: adminVipMixSchema } } },
    async (req, reply) => {
      if (!req.isMultipart())
        throw new AppError(415, 'unsupported_media_type', 'Send the mix as multipart/form-data (file, title, artist, genre, description, artwork)');
      const row = await uploadMix({ db, storage, maxBytes }, uploadParts(req));
      await opts.announceChange();
      opts.renderInBackground();
      return reply.status(201).send(toAdminVipMix(row));
    },
  );

  app.patch(
    '/api/admin/vip-mixes/:id',
    { config: admin, schema: { params: mixIdParamsSchema, body: updateMixSchema, response: { 200: adminVipMixSchema } } },
    async (req) => {
      const row = await updateMixDetails(db, req.params.id, req.body);
      await opts.announceChange();
      return toAdminVipMix(row);
    },
  );

  // 'Edit Links' on /vip-admin.
  app.patch(
    '/api/vip-mixes/:id',
    { config: admin, schema: { params: mixIdParamsSchema, body: updateMixLinkSchema, response: { 200: adminVipMixSchema } } },
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
    { config: admin, schema: { params: mixIdParamsSchema, response: { 200: adminVipMixSchema, 409: errorEnvelopeSchema } } },
    async (req) => {
      const row = await retryRendition(db, req.params.id);
      await opts.announceChange();
      opts.renderInBackground();
      return toAdminVipMix(row);
    },
  );

  app.delete('/api/admin/vip-mixes/:id', { config: admin, schema: { params: mixIdParamsSchema, response: { 204: noContentReply } } }, async (req, reply) => {
    await deleteMixAndFile(db, storage, req.params.id);
    await opts.announceChange();
    return reply.status(204).send();
  });
};
