import { randomBytes } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { FileStore } from '@tus/file-store';
import { MemoryLocker, Server as TusServer, type Upload } from '@tus/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { adminVipMixSchema, MIX_RESUMABLE_PATH, mixUploadMetadataSchema } from '../../../contracts/mixes';
import { DAY_MS, HOUR_MS } from '../../../contracts/time';
import { textField } from '../../../contracts/text-field';
import { AppError } from '../../lib/errors';
import { runPeriodically } from '../../lib/periodic-job';
import { access } from '../../plugins/access';
import { emptyReply } from '../../plugins/reply-schemas';
import { tusRequest } from '../../plugins/request-bodies';
import type { UploadPart } from '../../lib/uploads';
import { uploadMix } from './mix-upload-service';
import { toAdminVipMix } from './mix-views';

const MB = 1024 * 1024;
/** An upload id: 32 hex digits (nginx's `$request_id` has this form). */
const UPLOAD_ID = /^[a-f0-9]{32}$/;
/**
 * The id a proxy chose for a new upload (deploy/nginx/dhr-locations.conf sends its `$request_id`):
 * it routes the creation and every later request of the upload by this id to the same instance, the
 * one that stages the bytes (docs/operations.md).
 */
const UPLOAD_ID_HEADER = 'x-dhr-upload-id';
const uploadIdParamsSchema = z.object({ uploadId: textField(64).regex(/^[a-f0-9]{32}$/, 'an upload id') });

/** The JSON envelope of plugins/errors.ts, for answers tus writes itself. */
function envelope(status: number, code: string, message: string) {
  return { status_code: status, body: JSON.stringify({ error: { code, message }, message }) };
}

/** A refusal thrown inside a tus hook becomes tus's answer with our envelope; anything else is a 500 with no detail. */
function tusRefusal(err: unknown) {
  if (err instanceof AppError) return envelope(err.statusCode, err.code, err.message);
  return envelope(500, 'internal_error', 'The upload could not be finished');
}

/**
 * Resumable mix uploads (tus 1.0, @tus/server; docs/decisions/0030-resumable-mix-uploads.md):
 * the parts of a large file are kept under DATA_DIR/mix-uploads until the last byte arrives, then
 * the file goes through the same path as a small upload (uploadMix: type by its bytes, cap, tags,
 * artwork) and its staged copy is deleted. Access is decided by the route policy before any byte is
 * read; tus's own body handling is reached only through these admin routes.
 */
export const mixUploadsRoutes: FastifyPluginAsyncZod<{ announceChange: () => Promise<void>; renderInBackground: () => void }> = async (app, opts) => {
  const { db } = app.database;
  const storage = app.mediaStorage;
  const maxBytes = app.config.MIX_MAX_MB * MB;
  const directory = path.join(app.config.dataDir, 'mix-uploads');
  await mkdir(directory, { recursive: true });
  const store = new FileStore({ directory, expirationPeriodInMilliseconds: DAY_MS });

  const tus = new TusServer({
    path: MIX_RESUMABLE_PATH,
    datastore: store,
    locker: new MemoryLocker(),
    maxSize: maxBytes,
    relativeLocation: true,
    // Terminating a finished upload would delete nothing of ours: the mix is already made.
    disableTerminationForFinishedUploads: true,
    // The upload id is the path's last segment, checked by the route's params; never read from the
    // query string (tus's default matches the end of the whole URL, query included).
    getFileIdFromRequest: (req) => uploadIdOf(new URL(req.url).pathname),
    // The proxy's id when it sent one (and it is free here), else a random one.
    namingFunction: (req) => {
      const proposed = req.headers.get(UPLOAD_ID_HEADER)?.toLowerCase();
      const free = (id: string) => !existsSync(path.join(directory, id)) && !existsSync(path.join(directory, `${id}.json`));
      return proposed && UPLOAD_ID.test(proposed) && free(proposed) ? proposed : randomBytes(16).toString('hex');
    },
    async onUploadCreate(_req, upload) {
      const parsed = mixUploadMetadataSchema.safeParse(metadataOf(upload));
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw envelope(400, 'validation_error', `Invalid field '${issue?.path.join('.') ?? 'field'}': ${issue?.message ?? 'is invalid'}`);
      }
      if (upload.size === undefined) throw envelope(400, 'length_required', 'Send the size of the file when the upload starts');
      return {};
    },
    async onUploadFinish(_req, upload) {
      try {
        const row = await uploadMix({ db, storage, maxBytes, warn: (m) => app.log.warn(m) }, stagedParts(directory, upload));
        await opts.announceChange();
        // The listening copy is made as for a small upload.
        opts.renderInBackground();
        return { status_code: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(toAdminVipMix(row)) };
      } catch (err) {
        if (!(err instanceof AppError)) app.log.error({ err }, 'finishing a resumable mix upload failed');
        throw tusRefusal(err);
      } finally {
        await store.remove(upload.id).catch(() => undefined);
      }
    },
  });

  // tus reads the body itself: the request stream is left unread here.
  app.addContentTypeParser('application/offset+octet-stream', (_req, _payload, done) => done(null, undefined));

  const handle = async (req: FastifyRequest, reply: FastifyReply) => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    // Only tus's own body type reaches it unread; any other body was parsed (or refused) by Fastify, and tus answers without it.
    const withBody = (req.method === 'PATCH' || req.method === 'POST') && req.headers['content-type']?.startsWith('application/offset+octet-stream') === true;
    // tus sees the path only: no query string reaches it.
    const pathOnly = req.url.split('?')[0] ?? '';
    const request = new Request(`http://${req.host || 'localhost'}${pathOnly}`, {
      method: req.method,
      headers,
      body: withBody ? (Readable.toWeb(req.raw) as ReadableStream<Uint8Array>) : undefined,
      // @ts-expect-error Node's fetch needs duplex for a streamed body; lib.dom's RequestInit does not know it.
      duplex: 'half',
    });
    const response = await tus.handleWeb(request);
    reply.status(response.status);
    response.headers.forEach((value, name) => void reply.header(name, value));
    // The answers tus writes are small (JSON, or nothing).
    const body = req.method === 'HEAD' || response.status === 204 ? undefined : Buffer.from(await response.arrayBuffer());
    return reply.send(body);
  };

  const admin = { access: access.admin };
  const metadata = "The mix's details, tus-style: comma-separated `key base64(value)` pairs for filename, title, artist, genre and description.";
  app.post(
    MIX_RESUMABLE_PATH,
    {
      config: { ...admin, documentedRequest: tusRequest('POST', metadata) },
      schema: { summary: 'Start a resumable mix upload (tus)', response: TUS_REPLIES.POST },
    },
    handle,
  );
  for (const method of ['HEAD', 'PATCH', 'DELETE'] as const) {
    app.route({
      method,
      url: `${MIX_RESUMABLE_PATH}/:uploadId`,
      // HEAD is tus's own request (how far an upload got), not the copy of a GET: it is documented.
      config: { ...admin, documentedRequest: tusRequest(method, metadata), swagger: { exposeHeadRoute: true } },
      schema: { summary: TUS_SUMMARIES[method], params: uploadIdParamsSchema, response: TUS_REPLIES[method] },
      handler: handle,
    });
  }

  // Uploads left unfinished for a day are dropped with their bytes.
  runPeriodically(app, { name: 'stale mix uploads', everyMs: HOUR_MS, run: async () => void (await store.deleteExpired()) });
};

const FINISHED = { description: 'The last bytes arrived: the new mix.', content: { 'application/json': { schema: adminVipMixSchema } } };
const TUS_VERSION = { 'Tus-Resumable': { description: 'The tus protocol version.', type: 'string' } } as const;
const OFFSET = { 'Upload-Offset': { description: 'How many bytes the server holds.', type: 'integer' } } as const;

/** What tus answers to each request (tus 1.0; refusals carry the error envelope). */
const TUS_REPLIES = {
  POST: {
    200: FINISHED,
    201: emptyReply('The upload exists: send its bytes to its Location.', {
      Location: { description: "The upload's address.", type: 'string' },
      ...OFFSET,
      ...TUS_VERSION,
    }),
  },
  HEAD: {
    200: emptyReply('How far the upload got.', {
      ...OFFSET,
      'Upload-Length': { description: 'The size of the whole file.', type: 'integer' },
      'Upload-Metadata': { description: 'The metadata the upload was created with.', type: 'string' },
      ...TUS_VERSION,
    }),
  },
  PATCH: { 200: FINISHED, 204: emptyReply('The bytes are kept; send the next ones from Upload-Offset.', { ...OFFSET, ...TUS_VERSION }) },
  DELETE: { 204: emptyReply('The upload and its bytes are dropped.', TUS_VERSION) },
};

const TUS_SUMMARIES = {
  HEAD: 'Ask how far a resumable mix upload got (tus)',
  PATCH: 'Send the next bytes of a resumable mix upload (tus)',
  DELETE: 'Drop an unfinished resumable mix upload (tus)',
};

/** The upload id a tus request names: the last segment of its path, 32 hex digits, or none. */
function uploadIdOf(pathname: string): string | undefined {
  const id = pathname.startsWith(`${MIX_RESUMABLE_PATH}/`) ? pathname.slice(MIX_RESUMABLE_PATH.length + 1) : '';
  return UPLOAD_ID.test(id) ? id : undefined;
}

/** tus metadata with its empty values (sent as a bare key) as empty strings. */
function metadataOf(upload: Upload): Record<string, string> {
  return Object.fromEntries(Object.entries(upload.metadata ?? {}).map(([key, value]) => [key, value ?? '']));
}

/** The staged file and its metadata as the parts of a multipart upload, so both ways in share uploadMix. */
async function* stagedParts(directory: string, upload: Upload): AsyncIterable<UploadPart> {
  const metadata = mixUploadMetadataSchema.parse(metadataOf(upload));
  for (const name of ['title', 'artist', 'genre', 'description'] as const) yield { kind: 'field', name, value: metadata[name] };
  yield { kind: 'file', name: 'file', filename: metadata.filename, stream: createReadStream(path.join(directory, upload.id)) };
}
