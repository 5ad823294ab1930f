import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { fileTypeFromBuffer } from 'file-type';
import { parseBuffer, parseStream } from 'music-metadata';
import { IMAGE_MAX_BYTES } from '../../../contracts/images';
import { MIX_AUDIO_EXTENSIONS, MIX_MESSAGES, mixDetailsSchema, type MixAudioExtension, type MixDetails, type MixTags } from '../../../contracts/mixes';
import type { Db } from '../../db/client';
import { AppError, badRequest } from '../../lib/errors';
import { drain, peek, readCapped, storeImageUpload, type UploadPart } from '../../lib/uploads';
import { MEDIA_TYPES, MediaTooLargeError, type MediaStorage } from '../../lib/storage/media-storage';
import { insertMix, type MixRow } from './mixes-repository';

/**
 * Uploading a mix (ADR 0015): the audio is streamed to media storage as it arrives (never held in
 * memory), its type decided by its bytes, then its duration, bitrate and embedded artwork are read
 * from the stored file. Anything wrong and nothing is kept. The parts come from the one streaming
 * upload path (lib/uploads.ts).
 */

export interface UploadDeps {
  db: Db;
  storage: MediaStorage;
  maxBytes: number;
  /** Told when something of the file is left out (embedded artwork over its cap). */
  warn?: (message: string) => void;
}

/** Embedded artwork larger than this is ignored (with a warning): no picture of a mix needs it, and sharp would decode it. */
export const EMBEDDED_ARTWORK_MAX_BYTES = 10 * 1024 * 1024;

const unsupported = (message: string) => new AppError(415, 'unsupported_media_type', message);

/** file-type's answer → the mix extension it is, if it is one of ours. */
function audioExtension(detected: string | undefined): MixAudioExtension | undefined {
  if (detected === 'mp4') return 'm4a';
  return (MIX_AUDIO_EXTENSIONS as readonly string[]).includes(detected ?? '') ? (detected as MixAudioExtension) : undefined;
}

/** A file name's extension as a mix extension ('.mp4' is an M4A); null without an extension. */
function nameExtension(filename: string): string | null {
  const dot = filename.lastIndexOf('.');
  if (dot <= 0) return null;
  const ext = filename.slice(dot + 1).toLowerCase();
  return ext === 'mp4' ? 'm4a' : ext;
}

/** Checks and re-encodes an image (lib/images.ts, preset 'artwork') and stores it by content hash; returns its public path. */
function storeArtwork(storage: MediaStorage, image: Buffer): Promise<string> {
  return storeImageUpload(storage, image, 'artwork');
}

interface StoredAudio {
  key: string;
  size: number;
}

/** How much of the start of a file the type check reads (ID3 tags with pictures push MP3 frames back). */
const SNIFF_BYTES = 256 * 1024;

/** Streams the audio part to storage under `mixes/<id>.<ext>` after checking its first bytes. */
async function storeAudio(deps: UploadDeps, id: string, filename: string, stream: NodeJS.ReadableStream): Promise<StoredAudio> {
  const { head, whole } = await peek(stream, SNIFF_BYTES);
  const ext = audioExtension((await fileTypeFromBuffer(head))?.ext);
  const fromName = nameExtension(filename);
  if (!ext || (fromName !== null && fromName !== ext)) {
    // The rest is read and dropped so the request can finish with a clear answer.
    await drain(whole);
    throw ext ? badRequest(MIX_MESSAGES.nameMismatch, 'name_mismatch') : unsupported(MIX_MESSAGES.notAudio);
  }
  const key = `mixes/${id}.${ext}`;
  const stored = await deps.storage.put(key, whole, { contentType: MEDIA_TYPES[ext] ?? 'application/octet-stream', maxBytes: deps.maxBytes });
  return { key, size: stored.size };
}

interface AudioFacts {
  durationS: number;
  bitrateKbps: number | null;
  picture: Buffer | null;
}

/** Duration, bitrate and embedded artwork, read from the stored file (headers; the whole file only when it must). */
async function readAudioFacts(storage: MediaStorage, audio: StoredAudio): Promise<AudioFacts> {
  const stream = await storage.open(audio.key);
  const readable = stream instanceof Readable ? stream : Readable.from(stream);
  try {
    const meta = await parseStream(readable, { mimeType: MEDIA_TYPES[audio.key.slice(audio.key.lastIndexOf('.') + 1)], size: audio.size });
    const bitrate = meta.format.bitrate ?? null;
    const duration = meta.format.duration ?? (bitrate ? (audio.size * 8) / bitrate : undefined);
    if (!duration || !Number.isFinite(duration) || duration <= 0) throw unsupported(MIX_MESSAGES.notAudio);
    const picture = meta.common.picture?.[0]?.data;
    return {
      durationS: Math.max(1, Math.round(duration)),
      bitrateKbps: bitrate ? Math.round(bitrate / 1000) : null,
      picture: picture ? Buffer.from(picture) : null,
    };
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw unsupported(MIX_MESSAGES.notAudio);
  } finally {
    readable.destroy();
  }
}

/** POST /api/admin/vip-mixes: parts in any order (fields may follow the file). */
export async function uploadMix(deps: UploadDeps, parts: AsyncIterable<UploadPart>): Promise<MixRow> {
  const id = `mix-${randomBytes(6).toString('hex')}`;
  const fields: Record<string, string> = {};
  let audio: StoredAudio | undefined;
  let artwork: Buffer | undefined;
  try {
    for await (const part of parts) {
      if (part.kind === 'field') {
        fields[part.name] = part.value;
      } else if (part.name === 'file' && !audio) {
        audio = await storeAudio(deps, id, part.filename, part.stream);
      } else if (part.name === 'artwork' && !artwork) {
        artwork = await readCapped(part.stream, IMAGE_MAX_BYTES, () => new MediaTooLargeError(IMAGE_MAX_BYTES));
        if (artwork.length === 0) artwork = undefined;
      } else {
        await drain(part.stream);
      }
    }
    if (!audio) throw badRequest(MIX_MESSAGES.fileRequired, 'file_required');
    const details = parseDetails(fields);
    const facts = await readAudioFacts(deps.storage, audio);
    if (facts.picture && facts.picture.length > EMBEDDED_ARTWORK_MAX_BYTES) {
      deps.warn?.(`mix ${id}: embedded artwork of ${facts.picture.length} bytes ignored (over ${EMBEDDED_ARTWORK_MAX_BYTES})`);
      facts.picture = null;
    }
    // Uploaded artwork must be an image; a broken embedded picture only means no artwork.
    const artworkUrl = artwork
      ? await storeArtwork(deps.storage, artwork)
      : facts.picture
        ? await storeArtwork(deps.storage, facts.picture).catch(() => null)
        : null;
    return await insertMix(deps.db, {
      id,
      ...details,
      duration: facts.durationS,
      fileSize: audio.size,
      bitrateKbps: facts.bitrateKbps,
      artworkUrl,
      s3Url: audio.key,
    });
  } catch (err) {
    if (audio) await deps.storage.delete(audio.key).catch(() => undefined);
    throw err;
  }
}

function parseDetails(fields: Record<string, string>): MixDetails {
  const parsed = mixDetailsSchema.safeParse(fields);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') ?? 'field';
    throw badRequest(`Invalid field '${field}': ${issue?.message ?? 'is invalid'}`, 'validation_error');
  }
  return parsed.data;
}

/** A tag's text, trimmed; null when absent or blank. */
function tagText(value: string | undefined): string | null {
  const text = value?.trim();
  return text ? text : null;
}

/**
 * POST /api/admin/vip-mixes/preview: the tags in the first bytes of a file (the upload form sends a
 * slice), so the form can fill in what the admin has not typed. `totalSize` is the whole file's size:
 * with it a constant-bitrate MP3's duration is estimated from its first frames.
 */
export async function previewTags(head: Buffer, totalSize: number | undefined): Promise<MixTags> {
  const ext = audioExtension((await fileTypeFromBuffer(head))?.ext);
  if (!ext) throw unsupported(MIX_MESSAGES.notAudio);
  try {
    const meta = await parseBuffer(head, { mimeType: MEDIA_TYPES[ext], size: totalSize && totalSize >= head.length ? totalSize : undefined });
    const bitrate = meta.format.bitrate;
    // A WAV slice's duration is the slice's: the whole file's follows from its constant bitrate.
    const partialWav = ext === 'wav' && bitrate && totalSize && totalSize > head.length;
    const duration = partialWav ? (totalSize * 8) / bitrate : meta.format.duration;
    return {
      title: tagText(meta.common.title),
      artist: tagText(meta.common.artist),
      genre: tagText(meta.common.genre?.[0]),
      durationS: duration && Number.isFinite(duration) && duration > 0 ? Math.max(1, Math.round(duration)) : null,
      bitrateKbps: bitrate && Number.isFinite(bitrate) ? Math.round(bitrate / 1000) : null,
      artwork: Boolean(meta.common.picture?.length),
    };
  } catch {
    throw unsupported(MIX_MESSAGES.notAudio);
  }
}
