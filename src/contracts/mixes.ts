import { z } from 'zod';
import { MIX_DOWNLOAD_TIER, MIX_PLAY_TIER } from './tier-policy';
import { TIER_TABLE } from './tier-table';
import { textField, uuidField } from './text-field';

/**
 * The VIP mix library (ADR 0015). Who may play and download is tier-policy's (MIX_PLAY_TIER,
 * MIX_DOWNLOAD_TIER, from the tier table); this file holds the payloads and the words the page and
 * the API share.
 */

const PLAY = TIER_TABLE[MIX_PLAY_TIER];
const DOWNLOAD = TIER_TABLE[MIX_DOWNLOAD_TIER];

/** Genre dropdown options of the VIP page, matched exactly against a mix's genre. */
export const MIX_GENRES = ['deep house', 'tech house', 'progressive', 'melodic', 'minimal', 'organic'] as const;

/** Audio file types a mix may be (checked by content on upload), by extension. */
export const MIX_AUDIO_EXTENSIONS = ['mp3', 'm4a', 'aac', 'flac', 'wav'] as const;
export type MixAudioExtension = (typeof MIX_AUDIO_EXTENSIONS)[number];

/** The VIP page estimates storage as mixes × 0.15 GB. */
export const ESTIMATED_GB_PER_MIX = 0.15;

/** User-facing texts shared by the server's refusals and the page. */
export const MIX_MESSAGES = {
  vipRequiredForDownloads: `${DOWNLOAD.label} subscription required for downloads`,
  dailyLimitReached: `Daily download limit reached (${DOWNLOAD.mixDownloadsPerDay} per day)`,
  playRequiresSubscription: `Subscribe to ${PLAY.label} (€${PLAY.priceEur}+) to play mixes, or ${DOWNLOAD.label} (€${DOWNLOAD.priceEur}+) to download`,
  mixNotFound: 'Mix not found',
  fileNotAvailable: 'This mix has no audio file yet',
  notDownloadedToday: 'Download this mix first: its file link is given after a counted download',
  otherMember: 'You can only use your own downloads',
  linkExpired: 'This media link has expired or is not valid. Reload the page and try again.',
  notAudio: 'The file is not an MP3, AAC/M4A, FLAC or WAV audio file',
  nameMismatch: "The file's content does not match its name",
  fileRequired: 'Choose an audio file to upload',
  ffmpegMissing: `Install ffmpeg to make listening copies; until then the mix plays for ${TIER_TABLE.vip.label} members only`,
  listeningCopyPending: 'The listening copy of this mix is being prepared. Try again in a few minutes.',
  noAudioToRender: 'This mix has no audio file to make a listening copy from',
  renditionRunning: 'The listening copy of this mix is being made right now',
  downloadStarted: (remaining: number) => `Download started! ${remaining} downloads remaining today`,
  downloadFailed: 'Download failed',
  downloadNetworkError: 'Download failed due to network error',
  noDownloadsLeft: 'No downloads left today — resets at 00:00 (Dublin)',
  previewTooLarge: 'Send only the start of the file (2 MB at most) for a tag preview',
  artworkRequired: 'Choose an image for the artwork',
} as const;

/** The daily streaming volume (MIX_STREAM_DAILY_MB) is used up: when it resets, in Dublin time. */
export function streamLimitMessage(limitMb: number): string {
  return `Daily streaming limit reached (${limitMb} MB a day). Mixes play again after midnight (00:00) Dublin time.`;
}

/** The state of a mix's listening copy, as the admin list shows it. */
export const RENDITION_STATES = ['queued', 'running', 'ready', 'failed'] as const;

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

/** A mix is at most a day long (seconds). */
export const MIX_MAX_DURATION_S = 24 * 60 * 60;

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

/** The first bytes of a file are enough for the tag preview (the upload form sends a 1 MB slice). */
export const MIX_PREVIEW_SLICE_BYTES = 1024 * 1024;
/** The most the preview route reads. */
export const MIX_PREVIEW_MAX_BYTES = 2 * MIX_PREVIEW_SLICE_BYTES;

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

/** Where resumable uploads (tus 1.0) of mixes are created; each upload is `${MIX_RESUMABLE_PATH}/{id}`. */
export const MIX_RESUMABLE_PATH = '/api/admin/vip-mixes/uploads';
/** Files above this go up resumably (in chunks that survive a dropped connection); smaller ones in one request. */
export const MIX_RESUMABLE_MIN_BYTES = 50 * 1024 * 1024;

/** tus upload metadata of a resumable upload: the upload form's fields and the file's name. */
export const mixUploadMetadataSchema = mixDetailsSchema.extend({ filename: textField(300).min(1) });

/** GET /api/stream/{mixId}: a signed, short-lived URL the player may play (with Range). */
export const streamUrlSchema = z.object({ streamUrl: z.string() });

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

/** Whether `value` is a media storage key of a mix's audio file. */
export function isMixStorageKey(value: string): boolean {
  return new RegExp(`^mixes/[A-Za-z0-9][A-Za-z0-9._-]{0,150}\\.(?:${MIX_AUDIO_EXTENSIONS.join('|')})$`).test(value) && !value.includes('..');
}

// ---------------------------------------------------------------- access info

/** The access info, derived on the page from the permission flags and the download limits. */
export interface MixAccessInfo {
  canView: boolean;
  canPlay: boolean;
  canPlayMixes: boolean;
  canDownload: boolean;
  remainingDownloads: number;
  subscriptionTier: string;
  message: string;
}

/** What the access check gives when it failed. */
export const ACCESS_CHECK_FAILED: MixAccessInfo = {
  canView: true,
  canPlay: false,
  canPlayMixes: false,
  canDownload: false,
  remainingDownloads: 0,
  subscriptionTier: 'free',
  message: 'Please refresh the page to check your subscription status',
};

/** The access-info message per tier. `tier` is the member's effective tier. */
export function accessMessage(input: { authenticated: boolean; tier: string; canDownload: boolean; remainingDownloads: number }): string {
  if (!input.authenticated) return 'Sign in to access premium features';
  if (input.canDownload) {
    return input.remainingDownloads > 0
      ? `${input.remainingDownloads} of ${DOWNLOAD.mixDownloadsPerDay} downloads remaining today`
      : `Daily download limit reached (${DOWNLOAD.mixDownloadsPerDay}/day, resets tomorrow)`;
  }
  if (input.tier === 'free') return MIX_MESSAGES.playRequiresSubscription;
  if (input.tier === 'dhr1' || input.tier === 'dhr2') return `Upgrade to ${DOWNLOAD.label} (€${DOWNLOAD.priceEur}+) to download mixes`;
  return 'Unknown subscription status';
}
