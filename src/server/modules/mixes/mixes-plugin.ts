import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  downloadGrantSchema,
  downloadLimitsSchema,
  downloadRequestSchema,
  fileQuerySchema,
  fileUrlSchema,
  mediaTokenQuerySchema,
  memberIdSchema,
  mixParamsSchema,
  streamUrlSchema,
  vipMixListSchema,
  type VipMix,
} from '../../../contracts/mixes';
import type { UserRow } from '../../db/schema';
import { CachedRead, ChangeNotices } from '../../lib/cached-read';
import { AppError, unauthorized } from '../../lib/errors';
import { parseRange } from '../../lib/storage/http-range';
import { attachmentDisposition } from '../../lib/storage/media-storage';
import { access } from '../../plugins/access';
import { mixAdminRoutes } from './mix-admin-routes';
import { mixUploadsPlugin } from './mix-uploads-plugin';
import { downloadLimits, fileUrlFor, grantDownload, memberNamed, resolveMedia, streamUrlFor, type MediaPurpose } from './mix-access-service';
import { toVipMix } from './mix-views';
import { findMix, listMixes, type MixRow } from './mixes-repository';
import { mediaReply, noContentReply, preSerializedJson } from '../../plugins/reply-schemas';
import { errorEnvelopeSchema } from '../../../contracts/errors';

/** NOTIFY channel: the library changed (a mix added, edited, deleted, or downloaded); every instance drops its list. */
export const VIP_MIXES_CHANNEL = 'vip_mixes_changed';
/** Mix rows kept in memory at most (a library is a few hundred mixes). */
const MAX_KEPT_MIXES = 2000;

/**
 * The VIP mix library (ADR 0015): the public list, stream and download links for members, the media
 * routes that serve a link's bytes, and the admin routes (mix-admin-routes.ts).
 */
export const mixesPlugin: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const changes = new ChangeNotices(app, VIP_MIXES_CHANNEL);
  // Every Range request of a player (each seek) resolves its mix: rows found are kept per instance
  // until the library changes (a PGlite lookup cost ~1 ms of a 4 MB range's ~12 ms).
  const mixRows = new CachedRead<string, MixRow | undefined>({
    droppedBy: [changes],
    load: (id) => findMix(db, id),
    keepIf: (row) => row !== undefined,
    maxKeys: MAX_KEPT_MIXES,
    whenFull: 'keepOut',
  });
  const deps = { db, storage: app.mediaStorage, tokens: app.streamTokens, findMix: (id: string) => mixRows.get(id) };

  // The list is read by every visitor of /vip: one serialised body per instance until the library changes.
  const library = new CachedRead<void, { body: string; leadArtwork: string | undefined }>({
    droppedBy: [changes],
    load: async () => {
      const list = (await listMixes(db)).filter((row) => !row.hidden).map(toVipMix);
      // The first mix's artwork is the largest paint of /vip: its HTML preloads it.
      return { body: JSON.stringify(list), leadArtwork: list[0]?.artworkUrl ?? undefined };
    },
  });
  // Read once at start, so the first visitor's /vip already names its lead image.
  app.addHook('onReady', async () => library.warm());
  app.pageHints.leadImage('/vip', () => {
    // Not read yet on this instance: read now, so the next visitor's HTML names it.
    library.warm();
    return library.peek()?.leadArtwork;
  });
  const announceChange = () => changes.announce();

  // The page's list and the admin dashboard's test button read the same data.
  for (const url of ['/api/vip-mixes', '/api/vip/mixes']) {
    app.get(url, { config: { access: access.public, sharedAnswer: true }, schema: { response: { 200: vipMixListSchema } } }, async (_req, reply) => {
      reply.header('cache-control', 'public, no-cache').type('application/json; charset=utf-8');
      return preSerializedJson<VipMix[]>((await library.get()).body);
    });
  }

  const member = (user: UserRow | null): UserRow => {
    if (!user) throw unauthorized();
    return user;
  };

  app.get(
    '/api/stream/:mixId',
    { config: { access: access.member }, schema: { params: mixParamsSchema, response: { 200: streamUrlSchema } } },
    async (req) => ({ streamUrl: await streamUrlFor(deps, member(req.user), req.params.mixId) }),
  );

  app.get(
    '/api/download-limits/:userId',
    { config: { access: access.member }, schema: { params: z.object({ userId: memberIdSchema }), response: { 200: downloadLimitsSchema } } },
    async (req) => downloadLimits(db, await memberNamed(db, member(req.user), req.params.userId)),
  );

  app.post(
    '/api/download/:mixId',
    { config: { access: access.member }, schema: { params: mixParamsSchema, body: downloadRequestSchema, response: { 200: downloadGrantSchema } } },
    async (req) => {
      const grant = await grantDownload(deps, await memberNamed(db, member(req.user), req.body.userId), req.params.mixId);
      await announceChange();
      return grant;
    },
  );

  app.get(
    '/api/file/:mixId',
    { config: { access: access.member }, schema: { params: mixParamsSchema, querystring: fileQuerySchema, response: { 200: fileUrlSchema } } },
    async (req) => ({ downloadUrl: await fileUrlFor(deps, await memberNamed(db, member(req.user), req.query.userId), req.params.mixId) }),
  );

  // The bytes behind a signed link. The token is the permission (bound to member, mix and purpose,
  // minutes long), so these routes never look up a session.
  for (const purpose of ['stream', 'download'] as const satisfies readonly MediaPurpose[]) {
    app.get(
      `/media/mixes/:mixId/${purpose}`,
      {
        config: { access: access.public, sharedAnswer: true },
        compress: false,
        schema: {
          params: mixParamsSchema,
          querystring: mediaTokenQuerySchema,
          response: {
            200: mediaReply('audio/*', 'The mix.'),
            206: mediaReply('audio/*', 'The part of the mix the Range header asked for.'),
            302: noContentReply,
            416: errorEnvelopeSchema,
          },
        },
      },
      async (req, reply) => {
        const source = await resolveMedia(deps, req.params.mixId, purpose, req.query.token);
        reply.header('cache-control', 'private, no-store');
        if (source.kind === 'redirect') return reply.redirect(source.url, 302);
        const { object } = source;
        reply
          .header('accept-ranges', 'bytes')
          .header('last-modified', object.modifiedAt.toUTCString())
          .header('content-disposition', source.downloadName ? attachmentDisposition(source.downloadName) : 'inline')
          .type(object.contentType);
        const wanted = parseRange(req.headers.range, object.size);
        if (wanted.kind === 'unsatisfiable') {
          throw new AppError(416, 'range_not_satisfiable', 'The requested range starts past the end of the file', {
            'content-range': `bytes */${object.size}`,
          });
        }
        if (wanted.kind === 'partial') {
          const { start, end } = wanted.range;
          reply
            .status(206)
            .header('content-range', `bytes ${start}-${end}/${object.size}`)
            .header('content-length', end - start + 1);
          return reply.send(await deps.storage.open(object.key, wanted.range));
        }
        reply.header('content-length', object.size);
        return reply.send(await deps.storage.open(object.key));
      },
    );
  }

  await app.register(mixAdminRoutes, { announceChange });
  await app.register(mixUploadsPlugin, { announceChange });
};
