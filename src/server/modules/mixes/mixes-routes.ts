import fp from 'fastify-plugin';
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
  MIX_MESSAGES,
  mixParamsSchema,
  streamUrlSchema,
  vipMixListSchema,
  type VipMix,
} from '../../../contracts/mixes';
import type { UserRow } from '../../db/schema';
import { CachedRead } from '../../lib/cached-read';
import { AppError, unauthorized } from '../../lib/errors';
import { parseRange } from '../../lib/storage/http-range';
import { attachmentDisposition } from '../../lib/storage/media-storage';
import { access } from '../../plugins/access';
import {
  downloadLimits,
  fileUrlFor,
  grantDownload,
  memberNamed,
  resolveMedia,
  streamLimitError,
  streamUrlFor,
  type Asker,
  type MediaPurpose,
  type MixAccessDeps,
} from './mix-access-service';
import { StreamVolume } from './stream-volume';
import { startOfDayDublin } from '../../lib/dates';
import { toVipMix } from './mix-views';
import { findMix, listMixes, type MixRow } from './mixes-repository';
import { mediaReply, preSerializedJson } from '../../plugins/reply-schemas';
import { errorEnvelopeSchema } from '../../../contracts/errors';
import type { Mixes } from './mix-library';

/** Mix rows kept in memory at most (a library is a few hundred mixes). */
const MAX_KEPT_MIXES = 2000;

/**
 * The VIP mix library (ADR 0015): the public list, stream and download links for members, the media
 * routes that serve a link's bytes.
 */
const routes: FastifyPluginAsyncZod<{ mixes: Mixes }> = async (app, { mixes }) => {
  const { db } = app.database;
  const { changes } = mixes;
  // Every Range request of a player (each seek) resolves its mix: rows found are kept per instance
  // until the library changes (a PGlite lookup cost ~1 ms of a 4 MB range's ~12 ms).
  const mixRows = new CachedRead<string, MixRow | undefined>({
    droppedBy: [changes],
    load: (id) => findMix(db, id),
    keepIf: (row) => row !== undefined,
    maxKeys: MAX_KEPT_MIXES,
    whenFull: 'keepOut',
  });
  const deps = {
    db,
    storage: app.mediaStorage,
    links: app.mediaLinks,
    findMix: (id: string) => mixRows.get(id),
    streamLinkTtlS: app.config.MIX_STREAM_LINK_TTL_S,
    streamDailyBytes: Math.floor(app.config.MIX_STREAM_DAILY_MB * 1024 * 1024),
    streamVolume: new StreamVolume(db, (err) => app.log.warn({ err }, 'could not end a media answer in the stream volume')),
  };
  app.addHook('onClose', async () => deps.streamVolume.settled());

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
  // The page's list and the admin dashboard's test button read the same data.
  const libraryReads = [
    { url: '/api/vip-mixes', operationId: 'listVipMixes', summary: 'List the VIP mix library' },
    { url: '/api/vip/mixes', operationId: 'listVipMixesForDashboard', summary: "List the VIP mix library (the dashboard's test address)" },
  ];
  for (const { url, operationId, summary } of libraryReads) {
    const schema = { operationId, summary, response: { 200: vipMixListSchema } };
    app.get(url, { config: { access: access.public, sharedAnswer: true }, schema }, async (_req, reply) => {
      reply.header('cache-control', 'public, no-cache').type('application/json; charset=utf-8');
      return preSerializedJson<VipMix[]>((await library.get()).body);
    });
  }

  const member = (user: UserRow | null): UserRow => {
    if (!user) throw unauthorized();
    return user;
  };
  const asker = (req: { user: UserRow | null; sessionIdHash: string | null }): Asker => {
    if (!req.user || !req.sessionIdHash) throw unauthorized();
    return { user: req.user, sessionIdHash: req.sessionIdHash };
  };

  app.get(
    '/api/stream/:mixId',
    {
      config: { access: access.member },
      schema: { summary: 'A signed address to play a VIP mix', params: mixParamsSchema, response: { 200: streamUrlSchema, 409: errorEnvelopeSchema } },
    },
    async (req) => await streamUrlFor(deps, asker(req), req.params.mixId),
  );

  app.get(
    '/api/download-limits/:userId',
    {
      config: { access: access.member },
      schema: { summary: 'My mix downloads left today', params: z.object({ userId: memberIdSchema }), response: { 200: downloadLimitsSchema } },
    },
    async (req) => downloadLimits(db, await memberNamed(db, member(req.user), req.params.userId)),
  );

  app.post(
    '/api/download/:mixId',
    {
      config: { access: access.member },
      schema: {
        summary: 'Start downloading a VIP mix (a signed address)',
        params: mixParamsSchema,
        body: downloadRequestSchema,
        response: { 200: downloadGrantSchema },
      },
    },
    async (req) => {
      const grant = await grantDownload(deps, asker(req), await memberNamed(db, member(req.user), req.body.userId), req.params.mixId);
      await changes.announce();
      return grant;
    },
  );

  app.get(
    '/api/file/:mixId',
    {
      config: { access: access.member },
      schema: { summary: 'A signed address to download a VIP mix', params: mixParamsSchema, querystring: fileQuerySchema, response: { 200: fileUrlSchema } },
    },
    async (req) => ({ downloadUrl: await fileUrlFor(deps, asker(req), await memberNamed(db, member(req.user), req.query.userId), req.params.mixId) }),
  );

  mediaRoutes(app, deps, member);
};

/**
 * The bytes behind a link. The mediaLink policy has checked the link against the session cookie and
 * the member's tier (one session lookup); a stream answer is then admitted in the daily volume (one
 * statement) and ended there (one statement), whichever instance serves it.
 */
function mediaRoutes(app: Parameters<FastifyPluginAsyncZod>[0], deps: MixAccessDeps, member: (user: UserRow | null) => UserRow): void {
  for (const purpose of ['stream', 'download'] as const satisfies readonly MediaPurpose[]) {
    app.get(
      `/media/mixes/:mixId/${purpose}`,
      {
        config: { access: access.mediaLink(purpose) },
        compress: false,
        schema: {
          summary: purpose === 'stream' ? 'Play a VIP mix (signed link)' : 'Download a VIP mix (signed link)',
          params: mixParamsSchema,
          querystring: mediaTokenQuerySchema,
          response: {
            200: mediaReply('audio/*', purpose === 'stream' ? "The mix's listening copy." : 'The mix.'),
            206: mediaReply('audio/*', 'The part of the file the Range header asked for.'),
            409: errorEnvelopeSchema,
            416: errorEnvelopeSchema,
          },
        },
      },
      async (req, reply) => {
        const user = member(req.user);
        const now = new Date();
        const source = await resolveMedia(deps, user, req.params.mixId, purpose, now);
        reply.header('cache-control', 'private, no-store');
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
        const range = wanted.kind === 'partial' ? wanted.range : undefined;
        if (range) {
          reply
            .status(206)
            .header('content-range', `bytes ${range.start}-${range.end}/${object.size}`)
            .header('content-length', range.end - range.start + 1);
        } else {
          reply.header('content-length', object.size);
        }
        if (purpose !== 'stream') return reply.send(await deps.storage.open(object.key, range));
        // The answer's length is reserved in the member's daily volume as it is admitted (one atomic
        // statement in the database, so parallel requests on any instance cannot all pass on one
        // reading) and what it did not send is given back when it ends.
        const length = range ? range.end - range.start + 1 : object.size;
        const day = startOfDayDublin(now);
        const held = await deps.streamVolume.reserve(user.id, day, length, deps.streamDailyBytes);
        if (held === 'over') throw streamLimitError(deps.streamDailyBytes, now);
        if (held === 'busy') throw new AppError(429, 'too_many_streams', MIX_MESSAGES.tooManyStreams, { 'retry-after': '5' });
        let body;
        try {
          body = await deps.storage.open(object.key, range);
        } catch (err) {
          held.end(0);
          throw err;
        }
        // A finished answer sent its length; one cut short, what left through the socket meanwhile.
        // Counted there rather than by an extra stream stage that every chunk would go through.
        const socket = reply.raw.socket;
        const before = socket?.bytesWritten ?? 0;
        reply.raw.once('finish', () => held.end(length));
        reply.raw.once('close', () => held.end(Math.min(length, Math.max(0, (socket?.bytesWritten ?? before) - before))));
        return reply.send(body);
      },
    );
  }
}

export const mixesRoutes = fp(routes, { name: 'mixes-routes' });
