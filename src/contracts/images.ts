/**
 * Image uploads (profile pictures, banners, shop products): the formats accepted, the size cap
 * (under 5MB) and the messages. The server's pipeline is src/server/lib/images.ts.
 */

/** Uploaded images under 5MB. */
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;

/** The only formats accepted, recognised by their bytes (never by name or declared type). */
export const IMAGE_ACCEPTED_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] as const;

/** What uploaded images are served as; names are the SHA-256 of the stored bytes. */
export const IMAGE_URL_PATTERN = /^\/media\/images\/[a-f0-9]{64}\.(jpg|png|webp|gif)$/;

export const IMAGE_MESSAGES = {
  tooLarge: 'File size must be less than 5MB',
  invalid: 'Please upload a JPEG, PNG, WebP or GIF image',
  missing: 'Please choose an image to upload',
} as const;
