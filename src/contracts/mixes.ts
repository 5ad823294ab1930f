import { z } from 'zod';
import { isMixStorageKey, MIX_GENRES, MIX_MAX_DURATION_S, RENDITION_STATES } from './mix-values';
import { textField, uuidField } from './text-field';

export * from './mix-values';

/**
 * The VIP mix library (ADR 0015). Who may play and download is tier-policy's (MIX_PLAY_TIER,
 * MIX_DOWNLOAD_TIER, from the tier table); this file holds the payloads the page and the API share,
 * and re-exports the words and values of mix-values.ts (free of zod, for the web app's run time).
 */

export const renditionSchema = z.object({
  state: z.enum(RENDITION_STATES),
  /** 0..100 while running; 100 when ready. */
  percent: z.number().int(),
  /** Why the last attempt failed (kept while a retry waits). */
  error: z.string().nullable(),
});
export type Rendition = z.infer<typeof renditionSchema>;

/** Mix ids: lowercase letters, digits and dashes (the demo's 'mix-midnight-drift', uploads' 'mix-<hex>'). */
export const mixIdSchema = textField(100)
  .min(1)
  .regex(/^[a-z0-9][a-z0-9-]*$/, 'a mix id');
export const mixParamsSchema = z.object({ mixId: mixIdSchema });
export const mixIdParamsSchema = z.object({ id: mixIdSchema });
export const memberIdSchema = uuidField();

/** One mix as everyone sees it (without s3Url, which only admins see). */
export const vipMixSchema = z.object({
  id: z.string(),
  title: z.string(),
  artist: z.string(),
  genre: z.string(),
  /** Seconds. */
  duration: z.number().int(),
  /** Bytes. */
  fileSize: z.number(),
  artworkUrl: z.string().nullable(),
  isExclusive: z.boolean(),
  rating: z.number(),
  totalDownloads: z.number().int(),
  description: z.string(),
  /** Whether the mix has an audio file to play and download. */
  hasAudio: z.boolean(),
});
export type VipMix = z.infer<typeof vipMixSchema>;
export const vipMixListSchema = z.array(vipMixSchema);

/** One mix as the admin pages see it: with its storage address. */
export const adminVipMixSchema = vipMixSchema.extend({
  /** A media storage key ('mixes/<id>.mp3'); null: 'Not set'. */
  s3Url: z.string().nullable(),
  /** Bitrate in kbit/s read from the uploaded file, when known. */
  bitrateKbps: z.number().int().nullable(),
  /** Hidden from members: absent from their lists, its media links answer 404. */
  hidden: z.boolean(),
  createdAt: z.string(),
  /** The listening copy the stream links serve. */
  rendition: renditionSchema,
  /** Stream links issued, at most one per member and mix an hour. */
  plays: z.number().int(),
});
export type AdminVipMix = z.infer<typeof adminVipMixSchema>;
export const adminVipMixListSchema = z.array(adminVipMixSchema);

/**
 * A media storage key of an audio file, nothing else: an outside URL would be handed to every member
 * as a redirect to wherever the link points (migration 0011 cleared the old ones).
 */
const s3UrlValueSchema = textField(2000).trim().refine(isMixStorageKey, 'a storage key such as mixes/name.mp3');

/** PATCH /api/vip-mixes/{id}: an empty string clears the link. */
export const updateMixLinkSchema = z.object({ s3Url: z.union([s3UrlValueSchema, z.literal('')]).nullable() });

const text = (max: number) => textField(max).trim();

/** Fields of an upload (multipart text fields) and of PATCH /api/admin/vip-mixes/{id}. */
export const mixDetailsSchema = z.object({
  title: text(200).min(1, 'Title is required'),
  artist: text(200).min(1, 'Artist is required'),
  genre: z.enum(MIX_GENRES),
  description: text(2000).default(''),
});
export type MixDetails = z.infer<typeof mixDetailsSchema>;

export const updateMixSchema = mixDetailsSchema
  .extend({
    // No default here: a patch that leaves the description out keeps it.
    description: text(2000),
    /** Seconds; corrects what was read from the file. */
    duration: z.number().int().min(1).max(MIX_MAX_DURATION_S),
    rating: z.number().min(1).max(5),
    isExclusive: z.boolean(),
    hidden: z.boolean(),
  })
  .partial();
export type UpdateMix = z.infer<typeof updateMixSchema>;

/** POST /api/admin/vip-mixes/preview: the whole file's size, so a CBR MP3's duration can be estimated from a slice. */
export const mixPreviewFieldsSchema = z.object({ size: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional() });

/** What the preview found in a file's tags; null where a tag is absent. */
export const mixTagsSchema = z.object({
  title: z.string().nullable(),
  artist: z.string().nullable(),
  genre: z.string().nullable(),
  durationS: z.number().int().nullable(),
  bitrateKbps: z.number().int().nullable(),
  artwork: z.boolean(),
});
export type MixTags = z.infer<typeof mixTagsSchema>;

/** tus upload metadata of a resumable upload: the upload form's fields and the file's name. */
export const mixUploadMetadataSchema = mixDetailsSchema.extend({ filename: textField(300).min(1) });

/** GET /api/stream/{mixId}: a signed, short-lived URL the player may play (with Range), and how long it works (the player renews it before then). */
export const streamUrlSchema = z.object({ streamUrl: z.string(), expiresInMs: z.number().int().min(0).max(86_400_000) });

/** GET /api/download-limits/{userId}. */
export const downloadLimitsSchema = z.object({ subscriptionTier: z.string(), remainingDownloads: z.number().int() });
export type DownloadLimits = z.infer<typeof downloadLimitsSchema>;

/** POST /api/download/{mixId} body. */
export const downloadRequestSchema = z.object({ userId: memberIdSchema });
export const downloadGrantSchema = z.object({ downloadUrl: z.string(), remainingDownloads: z.number().int() });
export type DownloadGrant = z.infer<typeof downloadGrantSchema>;

/** GET /api/file/{mixId}?userId= */
export const fileQuerySchema = z.object({ userId: memberIdSchema });
export const fileUrlSchema = z.object({ downloadUrl: z.string() });

/** The signed media URL's query. */
export const mediaTokenQuerySchema = z.object({ token: textField(200) });
