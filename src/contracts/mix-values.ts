import { MIX_DOWNLOAD_TIER, MIX_PLAY_TIER } from './tier-policy';
import { TIER_TABLE } from './tier-table';

/**
 * VIP mix library constants, words and rules the web app uses at run time, free of zod: the /vip
 * page loads no schema library for them (mixes.ts re-exports them with its schemas).
 */

const PLAY = TIER_TABLE[MIX_PLAY_TIER];
const DOWNLOAD = TIER_TABLE[MIX_DOWNLOAD_TIER];

/** Genre dropdown options of the VIP page, matched exactly against a mix's genre. */
export const MIX_GENRES = ['deep house', 'tech house', 'progressive', 'melodic', 'minimal', 'organic'] as const;

/** Audio file types a mix may be (checked by content on upload), by extension. */
export const MIX_AUDIO_EXTENSIONS = ['mp3', 'm4a', 'aac', 'flac', 'wav'] as const;
export type MixAudioExtension = (typeof MIX_AUDIO_EXTENSIONS)[number];

/** User-facing texts shared by the server's refusals and the page. */
export const MIX_MESSAGES = {
  tooManyStreams: 'Too many mixes are playing on your account at once. Stop one and try again.',
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
  downloadStarted: (remaining: number) => `Download started! ${remaining} download${remaining === 1 ? '' : 's'} remaining today`,
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

/** A mix is at most a day long (seconds). */
export const MIX_MAX_DURATION_S = 24 * 60 * 60;

/** The first bytes of a file are enough for the tag preview (the upload form sends a 1 MB slice). */
export const MIX_PREVIEW_SLICE_BYTES = 1024 * 1024;
/** The most the preview route reads. */
export const MIX_PREVIEW_MAX_BYTES = 2 * MIX_PREVIEW_SLICE_BYTES;

/** Where resumable uploads (tus 1.0) of mixes are created; each upload is `${MIX_RESUMABLE_PATH}/{id}`. */
export const MIX_RESUMABLE_PATH = '/api/admin/vip-mixes/uploads';
/** Files above this go up resumably (in chunks that survive a dropped connection); smaller ones in one request. */
export const MIX_RESUMABLE_MIN_BYTES = 50 * 1024 * 1024;

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
