import { createHash } from 'node:crypto';
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { IMAGE_ACCEPTED_TYPES, IMAGE_MAX_BYTES, IMAGE_MESSAGES } from '../../contracts/images';
import { AppError, badRequest } from './errors';

/**
 * The image pipeline for every upload (profiles, banners, shop products): the type is read from the
 * bytes (JPEG, PNG, WebP, GIF only: SVG, HTML or anything renamed is refused), the size is capped, and
 * the picture is decoded and re-encoded by sharp to a fixed size, which drops all metadata (EXIF, GPS,
 * comments) and anything hidden after the image data. The result is named by its content hash.
 * docs/decisions/0016-community-comments-profiles-contact.md.
 */

export interface ImagePresetSpec {
  width: number;
  height: number;
  /** cover: crop to exactly width x height; inside: fit within, keeping the aspect ratio. */
  fit: 'cover' | 'inside';
  format: 'webp' | 'jpeg';
  quality: number;
}

export const IMAGE_PRESETS = {
  avatar: { width: 256, height: 256, fit: 'cover', format: 'webp', quality: 82 },
  banner: { width: 1500, height: 500, fit: 'cover', format: 'webp', quality: 80 },
  product: { width: 1200, height: 1200, fit: 'inside', format: 'webp', quality: 82 },
  /** VIP mix artwork: square cards on /vip. */
  artwork: { width: 800, height: 800, fit: 'cover', format: 'webp', quality: 82 },
} as const satisfies Record<string, ImagePresetSpec>;
export type ImagePreset = keyof typeof IMAGE_PRESETS;

export interface ProcessedImage {
  bytes: Buffer;
  contentType: 'image/webp' | 'image/jpeg';
  ext: 'webp' | 'jpg';
  /** `<sha256 of bytes>.<ext>`: the same picture always gets the same name. */
  name: string;
}

/** Pixels sharp will decode at most: a tiny file claiming a huge canvas is refused, not inflated. */
const MAX_INPUT_PIXELS = 40_000_000;
const SHARP_FORMATS: Record<(typeof IMAGE_ACCEPTED_TYPES)[number], string> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
};

/** The accepted type of these bytes, or undefined (SVG, HTML, text, other formats, nothing). */
export async function sniffImageType(bytes: Uint8Array): Promise<(typeof IMAGE_ACCEPTED_TYPES)[number] | undefined> {
  if (bytes.length === 0) return undefined;
  const found = await fileTypeFromBuffer(bytes);
  return (IMAGE_ACCEPTED_TYPES as readonly string[]).includes(found?.mime ?? '') ? (found?.mime as (typeof IMAGE_ACCEPTED_TYPES)[number]) : undefined;
}

/**
 * Checks and re-encodes an uploaded image to `preset`. Throws 413 'File size must be less than 5MB'
 * above `maxBytes`, 400 'Please upload a JPEG, PNG, WebP or GIF image' for anything else that is not
 * a decodable image of an accepted type.
 */
export async function processImage(bytes: Buffer, preset: ImagePreset | ImagePresetSpec, maxBytes: number = IMAGE_MAX_BYTES): Promise<ProcessedImage> {
  if (bytes.length > maxBytes) throw new AppError(413, 'image_too_large', IMAGE_MESSAGES.tooLarge);
  const type = await sniffImageType(bytes);
  if (!type) throw badRequest(IMAGE_MESSAGES.invalid, 'image_invalid');
  const spec = typeof preset === 'string' ? IMAGE_PRESETS[preset] : preset;
  try {
    const input = sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error', animated: false });
    // The decoder must agree with the sniffed type (a polyglot file cannot pass as another format).
    const meta = await input.metadata();
    if (meta.format !== SHARP_FORMATS[type]) throw badRequest(IMAGE_MESSAGES.invalid, 'image_invalid');
    const pipeline = input
      .rotate() // applies the EXIF orientation before the metadata is dropped
      .resize({ width: spec.width, height: spec.height, fit: spec.fit, withoutEnlargement: spec.fit === 'inside' });
    const out =
      spec.format === 'webp'
        ? await pipeline.webp({ quality: spec.quality }).toBuffer()
        : await pipeline.jpeg({ quality: spec.quality, mozjpeg: true }).toBuffer();
    const ext = spec.format === 'webp' ? 'webp' : 'jpg';
    const hash = createHash('sha256').update(out).digest('hex');
    return { bytes: out, contentType: spec.format === 'webp' ? 'image/webp' : 'image/jpeg', ext, name: `${hash}.${ext}` };
  } catch (err) {
    if (err instanceof AppError) throw err;
    // Truncated or corrupt data, or a canvas over the pixel limit.
    throw badRequest(IMAGE_MESSAGES.invalid, 'image_invalid');
  }
}
