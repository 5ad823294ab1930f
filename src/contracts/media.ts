import { textField } from './text-field';

/**
 * Stored images (profile pictures, product photos, mix artwork) are named by the hash of their
 * re-encoded bytes: `<hex hash>.<ext>`. The name never changes meaning, so it is cached for ever.
 */
const IMAGE_EXTENSIONS = ['jpg', 'png', 'webp', 'avif', 'gif'] as const;

export const IMAGE_NAME_RE = new RegExp(`^[a-f0-9]{16,128}\\.(?:${IMAGE_EXTENSIONS.join('|')})$`);

export const imageNameSchema = textField(140).regex(IMAGE_NAME_RE, 'a content hash and an image extension');

/** The public URL path of a stored image. */
export function mediaImagePath(name: string): string {
  return `/media/images/${name}`;
}
