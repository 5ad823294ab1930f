import { Transform, type TransformCallback } from 'node:stream';
import { AppError } from '../errors';

/**
 * Where media files (mixes, artwork, profile and product images) live: one interface, two drivers
 * (docs/decisions/0015-vip-mixes-and-media-storage.md). `local-storage.ts` keeps files under
 * DATA_DIR/media; `s3-storage.ts` keeps objects in an S3-compatible bucket. Config picks one
 * (`createMediaStorage` in storage-plugin.ts); the app carries it as `app.mediaStorage`.
 *
 * Keys are relative, slash-separated paths such as `mixes/<id>.mp3` or `images/<sha256>.webp`.
 * The key's extension names the content type (MEDIA_TYPES), so both drivers answer the same type
 * for the same key, and a file can never be served as something its name does not say.
 */
export interface MediaStorage {
  readonly driver: 'local' | 's3';
  /** Where objects live, for the storage status page: the folder or `bucket` (at endpoint). */
  readonly location: string;
  /**
   * Streams `body` to `key`, never holding the whole file in memory. Fails with MediaTooLargeError
   * (and stores nothing) when the stream passes `maxBytes`. Replaces an existing object whole: a
   * reader sees the old file or the new one, never a half-written one.
   */
  put(key: string, body: NodeJS.ReadableStream, opts: PutOptions): Promise<StoredObject>;
  /** The object's bytes, or the inclusive byte `range` of them. MediaNotFoundError when absent. */
  open(key: string, range?: ByteRange): Promise<NodeJS.ReadableStream>;
  /** Size, type and date of an object, or null when there is none. */
  stat(key: string): Promise<StoredObject | null>;
  /** Removes the object; removing a missing one is not an error. */
  delete(key: string): Promise<void>;
  /** Bytes and objects stored (under `prefix` when given), counted live. */
  usage(prefix?: string): Promise<{ bytes: number; objects: number }>;
  /** Whether the storage answers right now (the folder is writable, the bucket is reachable). */
  reachable(): Promise<{ ok: boolean; error: string | null }>;
  /**
   * A short-lived URL the client may GET the object from directly, bypassing the app (S3 only;
   * the local driver answers null and the app serves the bytes itself).
   */
  presignedGetUrl(key: string, opts: PresignOptions): Promise<string | null>;
}

export interface PutOptions {
  /** Must be the type the key's extension names (MEDIA_TYPES). */
  contentType: string;
  maxBytes: number;
}

export interface PresignOptions {
  expiresInS: number;
  /** Sent back as Content-Disposition: attachment with this file name. */
  downloadName?: string;
}

/** Inclusive byte positions, as in HTTP Range. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface StoredObject {
  key: string;
  size: number;
  contentType: string;
  modifiedAt: Date;
}

/** Content types by file extension: the only types media storage holds. No SVG (it can carry script). */
export const MEDIA_TYPES: Readonly<Record<string, string>> = {
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  aac: 'audio/aac',
  flac: 'audio/flac',
  wav: 'audio/wav',
  jpg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  avif: 'image/avif',
  gif: 'image/gif',
};

/** One to eight segments of letters, digits, `.`, `_`, `-`; no segment starts with a dot; an extension of MEDIA_TYPES. */
const KEY_RE = /^(?:[A-Za-z0-9][A-Za-z0-9._-]{0,127}\/){0,7}[A-Za-z0-9][A-Za-z0-9._-]{0,127}\.([a-z0-9]{2,5})$/;

/** The content type a key's extension names, or undefined when the key is not a valid media key. */
export function contentTypeForKey(key: string): string | undefined {
  const m = KEY_RE.exec(key);
  return m && !key.includes('..') ? MEDIA_TYPES[m[1] ?? ''] : undefined;
}

/** Throws InvalidMediaKeyError unless `key` is a valid media key; returns its content type. */
export function checkKey(key: string): string {
  const type = contentTypeForKey(key);
  if (!type) throw new InvalidMediaKeyError(key);
  return type;
}

/** A key that can name nothing in storage (a caller's bug, never user input passed through). */
export class InvalidMediaKeyError extends Error {
  constructor(key: string) {
    super(`Invalid media key: ${JSON.stringify(key.slice(0, 200))}`);
  }
}

export class MediaNotFoundError extends AppError {
  constructor() {
    super(404, 'not_found', 'File not found');
  }
}

export class MediaTooLargeError extends AppError {
  constructor(readonly maxBytes: number) {
    super(413, 'too_large', `The file is larger than the limit of ${formatLimit(maxBytes)}`);
  }
}

function formatLimit(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return mb >= 1 ? `${Math.round(mb * 10) / 10} MB` : `${bytes} bytes`;
}

/** Checks the put options against the key; returns the content type. */
export function checkPut(key: string, opts: PutOptions): string {
  const type = checkKey(key);
  if (opts.contentType !== type) throw new InvalidMediaKeyError(`${key} (${opts.contentType} is not ${type})`);
  if (!Number.isSafeInteger(opts.maxBytes) || opts.maxBytes < 0) throw new RangeError('maxBytes must be a non-negative integer');
  return type;
}

/** Quotes a file name for Content-Disposition: ASCII fallback plus the RFC 5987 UTF-8 form. */
export function attachmentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** Passes bytes through and fails with MediaTooLargeError as soon as more than `maxBytes` went by. */
export function byteLimit(maxBytes: number): Transform & { bytes: () => number } {
  let seen = 0;
  const t = new Transform({
    transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback) {
      seen += chunk.length;
      if (seen > maxBytes) cb(new MediaTooLargeError(maxBytes));
      else cb(null, chunk);
    },
  });
  return Object.assign(t, { bytes: () => seen });
}
