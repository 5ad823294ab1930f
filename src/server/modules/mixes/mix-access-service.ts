import { MIX_MESSAGES, isMixStorageKey, streamLimitMessage, type DownloadGrant, type DownloadLimits } from '../../../contracts/mixes';
import { canDownloadMixes, canPlayMixes, mixDownloadsPerDay } from '../../../contracts/tier-policy';
import { HOUR_MS, SECOND_MS } from '../../../contracts/time';
import type { Db } from '../../db/client';
import type { UserRow } from '../../db/schema';
import { startOfDayDublin, startOfNextDayDublin } from '../../lib/dates';
import { AppError, conflict, forbidden, notFound } from '../../lib/errors';
import { mediaPath, type MediaLinks, type MediaPurpose } from '../../lib/media-links';
import type { MediaStorage, StoredObject } from '../../lib/storage/media-storage';
import { findMemberById } from '../members/members-repository';
import { countDownloadsSince, countPlay, hasDownloadSince, recordDownloadWithinLimit, type MixRow } from './mixes-repository';
import type { StreamVolume } from './stream-volume';

/**
 * Playing and downloading VIP mixes (ADR 0015). The API hands out media URLs whose token is bound to
 * the session that asked (lib/media-links.ts); the `mediaLink` access policy checks token, session and
 * tier before the media routes run. Streams serve the mix's listening copy (rendition-service.ts);
 * the master file is served by downloads only, within the daily download limit, counted when a
 * download URL is issued. Streamed bytes count against MIX_STREAM_DAILY_MB a Dublin day.
 */

export type { MediaPurpose };

/** A player asks again before a link it holds expires (it keeps its position). MIX_STREAM_LINK_TTL_S sets it. */
export const MIX_STREAM_TTL_S = 15 * 60;
/** Long enough for the browser to start the download. */
export const MIX_DOWNLOAD_TTL_S = 10 * 60;
/** A stream link counts as a play at most once in this long per member and mix (seeks and renewals ask again). */
export const PLAY_WINDOW_MS = HOUR_MS;

export interface MixAccessDeps {
  db: Db;
  /** The mix row by id (mixes-routes.ts keeps them in memory until the library changes). */
  findMix: (id: string) => Promise<MixRow | undefined>;
  storage: MediaStorage;
  links: MediaLinks;
  /** MIX_STREAM_LINK_TTL_S: a stream link's lifetime (MIX_STREAM_TTL_S when not given). */
  streamLinkTtlS?: number;
  /** MIX_STREAM_DAILY_MB in bytes. */
  streamDailyBytes: number;
  /** Members' streamed bytes today and media answers in flight, in the database (stream-volume.ts). */
  streamVolume: StreamVolume;
}

/** Who asks for a link: the member signed in, and their session (the link works with that session only). */
export interface Asker {
  user: UserRow;
  sessionIdHash: string;
}

function signedLink(deps: MixAccessDeps, asker: Asker, mixId: string, purpose: MediaPurpose, now: number): { url: string; expiresAt: Date } {
  const ttl = purpose === 'stream' ? (deps.streamLinkTtlS ?? MIX_STREAM_TTL_S) : MIX_DOWNLOAD_TTL_S;
  const claims = { memberId: asker.user.id, sessionIdHash: asker.sessionIdHash, mixId, purpose };
  const { token, expiresAt } = deps.links.issue(claims, ttl, now);
  return { url: mediaPath(mixId, purpose, token), expiresAt };
}

function signedUrl(deps: MixAccessDeps, asker: Asker, mixId: string, purpose: MediaPurpose, now: number): string {
  return signedLink(deps, asker, mixId, purpose, now).url;
}

/** The mix, with an audio file; 404 otherwise. */
async function playableMix(deps: MixAccessDeps, mixId: string): Promise<MixRow & { s3Url: string }> {
  const mix = await deps.findMix(mixId);
  // A hidden mix is not there for members: its links answer as if it never was.
  if (!mix || mix.hidden) throw notFound(MIX_MESSAGES.mixNotFound);
  if (!mix.s3Url) throw notFound(MIX_MESSAGES.fileNotAvailable, 'file_not_available');
  return { ...mix, s3Url: mix.s3Url };
}

/**
 * The member a `userId` in a path, query or body names: the caller themself, or anyone when the
 * caller is an admin. Another member's id is 403 and reveals nothing about that member.
 */
export async function memberNamed(db: Db, caller: UserRow, userId: string): Promise<UserRow> {
  if (userId === caller.id) return caller;
  if (!caller.isAdmin) throw forbidden(MIX_MESSAGES.otherMember, 'not_your_account');
  const member = await findMemberById(db, userId);
  if (!member) throw notFound('Member not found');
  return member;
}

/**
 * What a stream of the mix plays: its listening copy when it is ready; before that the master, for
 * members who may download it anyway; else null (the copy is being prepared).
 */
function streamKey(mix: MixRow, member: UserRow, now: Date): string | null {
  if (mix.renditionState === 'ready' && mix.renditionKey) return mix.renditionKey;
  if (canDownloadMixes(member, now) && mix.s3Url && isMixStorageKey(mix.s3Url)) return mix.s3Url;
  return null;
}

/**
 * 429 once the member has streamed MIX_STREAM_DAILY_MB today (bytes sent, plus the lengths of their
 * answers in flight, reserved as each was admitted: an answer may pass the limit by its own size,
 * never by more).
 */
async function withinStreamVolume(deps: MixAccessDeps, member: UserRow, now: Date): Promise<void> {
  const used = await deps.streamVolume.used(member.id, startOfDayDublin(now));
  if (used >= deps.streamDailyBytes) throw streamLimitError(deps.streamDailyBytes, now);
}

/** The refusal of a member over their daily streaming volume, with the time it resets. */
export function streamLimitError(dailyBytes: number, now: Date): AppError {
  const retryAfterS = Math.ceil((startOfNextDayDublin(now).getTime() - now.getTime()) / SECOND_MS);
  const limitMb = Math.round((dailyBytes / (1024 * 1024)) * 1000) / 1000;
  return new AppError(429, 'stream_limit_reached', streamLimitMessage(limitMb), { 'retry-after': String(Math.max(1, retryAfterS)) });
}

const listeningCopyPending = () => conflict(MIX_MESSAGES.listeningCopyPending, 'listening_copy_pending');

/**
 * GET /api/stream/{mixId}: a stream URL for members of MIX_PLAY_TIER and above, bound to their session; counts a play.
 * `expiresInMs` tells the player when to ask for the next one (relative, so the listener's clock does not matter).
 */
export async function streamUrlFor(deps: MixAccessDeps, asker: Asker, mixId: string, now = new Date()): Promise<{ streamUrl: string; expiresInMs: number }> {
  if (!canPlayMixes(asker.user, now)) throw forbidden(MIX_MESSAGES.playRequiresSubscription, 'subscription_required');
  const mix = await playableMix(deps, mixId);
  if (!streamKey(mix, asker.user, now)) throw listeningCopyPending();
  await withinStreamVolume(deps, asker.user, now);
  await countPlay(deps.db, asker.user.id, mixId, PLAY_WINDOW_MS, now);
  const link = signedLink(deps, asker, mixId, 'stream', now.getTime());
  return { streamUrl: link.url, expiresInMs: Math.max(0, link.expiresAt.getTime() - now.getTime()) };
}

/** GET /api/download-limits/{userId}: downloads left today (0 for members who may not download). */
export async function downloadLimits(db: Db, member: UserRow, now = new Date()): Promise<DownloadLimits> {
  if (!canDownloadMixes(member, now)) return { subscriptionTier: member.subscriptionTier, remainingDownloads: 0 };
  const used = await countDownloadsSince(db, startOfDayDublin(now), member.id);
  return { subscriptionTier: member.subscriptionTier, remainingDownloads: Math.max(0, mixDownloadsPerDay(member, now) - used) };
}

function vipRequired(member: UserRow, now: Date) {
  if (!canDownloadMixes(member, now)) throw forbidden(MIX_MESSAGES.vipRequiredForDownloads, 'vip_required');
}

/** POST /api/download/{mixId}: counts one download (the tier's mixDownloadsPerDay a Dublin day) and signs its URL. */
export async function grantDownload(deps: MixAccessDeps, asker: Asker, member: UserRow, mixId: string, now = new Date()): Promise<DownloadGrant> {
  vipRequired(member, now);
  await playableMix(deps, mixId);
  const remaining = await recordDownloadWithinLimit(deps.db, {
    userId: member.id,
    mixId,
    since: startOfDayDublin(now),
    limit: mixDownloadsPerDay(member, now),
    at: now,
  });
  if (remaining === null) {
    const retryAfterS = Math.ceil((startOfNextDayDublin(now).getTime() - now.getTime()) / SECOND_MS);
    throw new AppError(429, 'daily_limit_reached', MIX_MESSAGES.dailyLimitReached, { 'retry-after': String(Math.max(1, retryAfterS)) });
  }
  return { downloadUrl: signedUrl(deps, asker, mixId, 'download', now.getTime()), remainingDownloads: remaining };
}

/** GET /api/file/{mixId}: a fresh link to a mix the member already downloaded today (it costs no second download). */
export async function fileUrlFor(deps: MixAccessDeps, asker: Asker, member: UserRow, mixId: string, now = new Date()): Promise<string> {
  vipRequired(member, now);
  await playableMix(deps, mixId);
  if (!(await hasDownloadSince(deps.db, member.id, mixId, startOfDayDublin(now)))) {
    throw forbidden(MIX_MESSAGES.notDownloadedToday, 'not_downloaded_today');
  }
  return signedUrl(deps, asker, mixId, 'download', now.getTime());
}

/** What a media request gets: the stored object to serve, with the name a download is saved as. */
export interface MediaSource {
  object: StoredObject;
  downloadName: string | null;
}

/** The file name a download is saved as: 'Artist - Title.ext', safe on every system. */
export function downloadName(mix: Pick<MixRow, 'artist' | 'title'>, key: string): string {
  const ext = key.slice(key.lastIndexOf('.') + 1);
  const base = `${mix.artist} - ${mix.title}`
    .replace(/[\\/:*?"<>|\p{Cc}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 150);
  return `${base || 'mix'}.${ext}`;
}

/**
 * GET /media/mixes/{mixId}/{purpose}: the access policy has checked link, session and tier. Streams
 * get the listening copy (the master for downloaders until it is ready; the route admits each answer
 * within the member's daily volume); downloads get the master. Always served by the app, never a
 * presigned storage URL: a storage URL would work without the session.
 */
export async function resolveMedia(deps: MixAccessDeps, member: UserRow, mixId: string, purpose: MediaPurpose, now = new Date()): Promise<MediaSource> {
  const mix = await playableMix(deps, mixId);
  // Only storage keys are written; anything else in the row is not a file of ours.
  if (!isMixStorageKey(mix.s3Url)) throw notFound(MIX_MESSAGES.fileNotAvailable, 'file_not_available');
  let key = mix.s3Url;
  if (purpose === 'stream') {
    const listening = streamKey(mix, member, now);
    if (!listening) throw listeningCopyPending();
    // The daily volume is checked as the route admits the answer (StreamVolume.reserve), in the
    // statement that reserves its length: no separate read per Range request.
    key = listening;
  }
  const object = await deps.storage.stat(key);
  if (!object) throw notFound(MIX_MESSAGES.fileNotAvailable, 'file_not_available');
  return { object, downloadName: purpose === 'download' ? downloadName(mix, key) : null };
}
