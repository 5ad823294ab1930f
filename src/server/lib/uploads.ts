import { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { IMAGE_MAX_BYTES, IMAGE_MESSAGES } from '../../contracts/images';
import { mediaImagePath } from '../../contracts/media';
import { AppError, badRequest } from './errors';
import { processImage, type ImagePreset, type ImagePresetSpec } from './images';
import type { MediaStorage } from './storage/media-storage';

/**
 * The one upload path for every file a browser sends (profile pictures, banners, shop images, VIP
 * mixes and their artwork): multipart is streamed by @fastify/multipart, registered only in the
 * scope of the routes that take files (other routes keep refusing multipart with 415). Each file is
 * capped while it streams (the bytes past the cap are never kept), its type is decided by its bytes
 * (file-type, in lib/images.ts for pictures), pictures are re-encoded by sharp before they are stored,
 * and audio is streamed on to media storage without being held in memory.
 * The access policy and rate limits run before the handler, so a refused request costs no body read.
 */

export interface UploadLimits {
  /** The largest file the routes of this scope accept, in bytes; busboy stops one byte above it as a backstop. */
  maxFileBytes: number;
  /** Files per request; more is refused by the multipart reader (413). */
  files: number;
  /** Text fields per request. */
  fields: number;
}

/** Registers the streaming multipart reader in `app`'s scope (call it inside a route plugin, never at the root). */
export async function registerUploads(app: FastifyInstance, limits: UploadLimits): Promise<void> {
  await app.register(multipart, {
    limits: { fileSize: limits.maxFileBytes + 1, files: limits.files, fields: limits.fields, fieldSize: 10_000, parts: limits.files + limits.fields },
  });
}

/** One part of a multipart upload, free of the HTTP library's types. */
export type UploadPart = { kind: 'field'; name: string; value: string } | { kind: 'file'; name: string; filename: string; stream: NodeJS.ReadableStream };

/** The parts of a multipart request, in the order they arrive; a file's stream must be read or drained before the next part. */
export async function* uploadParts(req: FastifyRequest): AsyncIterable<UploadPart> {
  for await (const part of req.parts()) {
    if (part.type === 'file') yield { kind: 'file', name: part.fieldname, filename: part.filename, stream: part.file };
    else yield { kind: 'field', name: part.fieldname, value: typeof part.value === 'string' ? part.value : String(part.value) };
  }
}

/** Reads a stream to its end and drops it, so the request can finish with a clear answer. */
export async function drain(stream: NodeJS.ReadableStream): Promise<void> {
  for await (const _ of stream) void _;
}

/**
 * Reads a file part into memory, counting as it streams: past `maxBytes` the rest is drained and
 * dropped and `tooLarge()` is thrown, so no more than the cap is ever held.
 */
export async function readCapped(stream: NodeJS.ReadableStream, maxBytes: number, tooLarge: () => Error): Promise<Buffer> {
  const parts: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const b = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    total += b.length;
    if (total > maxBytes) {
      parts.length = 0;
      await drain(stream);
      throw tooLarge();
    }
    parts.push(b);
  }
  return Buffer.concat(parts);
}

/** The first `bytes` of a stream (for a type check by its bytes), and the whole stream again, those bytes first, to pass on. */
export async function peek(stream: NodeJS.ReadableStream, bytes: number): Promise<{ head: Buffer; whole: Readable }> {
  const iterator = stream[Symbol.asyncIterator]();
  const chunks: Buffer[] = [];
  let length = 0;
  while (length < bytes) {
    const next = await iterator.next();
    if (next.done) break;
    const chunk = Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value);
    chunks.push(chunk);
    length += chunk.length;
  }
  const head = Buffer.concat(chunks, length);
  async function* replay() {
    yield head;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value as Buffer;
  }
  return { head, whole: Readable.from(replay()) };
}

const imageTooLarge = () => new AppError(413, 'image_too_large', IMAGE_MESSAGES.tooLarge);

/** An image file part read under the image cap (413 'File size must be less than 5MB' above it). */
export function readImagePart(stream: NodeJS.ReadableStream, maxBytes: number = IMAGE_MAX_BYTES): Promise<Buffer> {
  return readCapped(stream, maxBytes, imageTooLarge);
}

/**
 * Checks and re-encodes an uploaded picture (lib/images.ts: type by its bytes, sharp, metadata
 * dropped) and stores it in media storage as `images/<content hash>.<ext>`; answers its public path.
 */
export async function storeImageUpload(storage: MediaStorage, bytes: Buffer, preset: ImagePreset | ImagePresetSpec): Promise<string> {
  const image = await processImage(bytes, preset);
  await storage.put(`images/${image.name}`, Readable.from([image.bytes]), { contentType: image.contentType, maxBytes: image.bytes.length });
  return mediaImagePath(image.name);
}

/**
 * The text fields and the one image of an image-upload form (`fileField`), read as they stream.
 * `checkFields` judges the text fields before a missing file is reported. Without a readable
 * multipart body, or without the file, it answers 400 'No image file provided'; other file parts are
 * drained and dropped.
 */
export async function readImageForm(
  req: FastifyRequest,
  fileField: string,
  checkFields: (fields: Record<string, string>) => void = () => undefined,
): Promise<{ fields: Record<string, string>; image: Buffer }> {
  if (!req.isMultipart()) throw badRequest(IMAGE_MESSAGES.missing, 'image_missing');
  const fields: Record<string, string> = {};
  let image: Buffer | undefined;
  try {
    for await (const part of uploadParts(req)) {
      if (part.kind === 'field') fields[part.name] = part.value;
      else if (part.name === fileField && !image) image = await readImagePart(part.stream);
      else await drain(part.stream);
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    // A broken or truncated multipart body: there is no image to read.
    throw badRequest(IMAGE_MESSAGES.missing, 'image_missing');
  }
  checkFields(fields);
  if (!image) throw badRequest(IMAGE_MESSAGES.missing, 'image_missing');
  return { fields, image };
}
