import { MIX_MESSAGES, isMixStorageKey, type DownloadGrant, type DownloadLimits } from '../../../contracts/mixes';
import { canDownloadMixes, canPlayMixes, mixDownloadsPerDay } from '../../../contracts/tier-policy';
import { SECOND_MS } from '../../../contracts/time';
import type { Db } from '../../db/client';
import type { UserRow } from '../../db/schema';
import { startOfDayDublin, startOfNextDayDublin } from '../../lib/dates';
import { AppError, forbidden, notFound } from '../../lib/errors';
import type { MediaStorage, StoredObject } from '../../lib/storage/media-storage';
import { findMemberById } from '../members/members-repository';
import type { StreamTokens } from '../radio/stream-tokens';
import { countDownloadsSince, hasDownloadSince, recordDownloadWithinLimit, type MixRow } from './mixes-repository';

/**
 * Playing and downloading VIP mixes (ADR 0015). The API hands out media URLs that carry a
 * short-lived HMAC token (radio's StreamTokens) bound to the member, the mix and the purpose; the
 * media routes serve the bytes for a valid token only. The daily download limit is counted when a
 * download URL is issued.
 */

export type MediaPurpose = 'stream' | 'download';

/** A player asks again when a link it holds has expired (it keeps its position). */
export const MIX_STREAM_TTL_S = 15 * 60;
/** Long enough for the browser to start the download. */
export const MIX_DOWNLOAD_TTL_S = 10 * 60;

export interface MixAccessDeps {
  db: Db;
  /** The mix row by id (mixes-plugin.ts keeps them in memory until the library changes). */
  findMix: (id: string) => Promise<MixRow | undefined>;
  storage: MediaStorage;
  tokens: StreamTokens;
}

/** The token's "mount": what it is good for. */
function tokenScope(mixId: string, purpose: MediaPurpose): string {
  return `vip-mix/${purpose}/${mixId}`;
}

export function mediaPath(mixId: string, purpose: MediaPurpose, token: string): string {
  return `/media/mixes/${mixId}/${purpose}?token=${encodeURIComponent(token)}`;
}

function signedUrl(tokens: StreamTokens, memberId: string, mixId: string, purpose: MediaPurpose, now: number): string {
  const ttl = purpose === 'stream' ? MIX_STREAM_TTL_S : MIX_DOWNLOAD_TTL_S;
  return mediaPath(mixId, purpose, tokens.issue(memberId, tokenScope(mixId, purpose), ttl, now).token);
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

/** GET /api/stream/{mixId}: a signed stream URL for members of MIX_PLAY_TIER and above. */
export async function streamUrlFor(deps: MixAccessDeps, member: UserRow, mixId: string, now = new Date()): Promise<string> {
  if (!canPlayMixes(member, now)) throw forbidden(MIX_MESSAGES.playRequiresSubscription, 'subscription_required');
  await playableMix(deps, mixId);
  return signedUrl(deps.tokens, member.id, mixId, 'stream', now.getTime());
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
export async function grantDownload(deps: MixAccessDeps, member: UserRow, mixId: string, now = new Date()): Promise<DownloadGrant> {
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
  return { downloadUrl: signedUrl(deps.tokens, member.id, mixId, 'download', now.getTime()), remainingDownloads: remaining };
}

/** GET /api/file/{mixId}: a fresh link to a mix the member already downloaded today (it costs no second download). */
export async function fileUrlFor(deps: MixAccessDeps, member: UserRow, mixId: string, now = new Date()): Promise<string> {
  vipRequired(member, now);
  await playableMix(deps, mixId);
  if (!(await hasDownloadSince(deps.db, member.id, mixId, startOfDayDublin(now)))) {
    throw forbidden(MIX_MESSAGES.notDownloadedToday, 'not_downloaded_today');
  }
  return signedUrl(deps.tokens, member.id, mixId, 'download', now.getTime());
}

/** What a media request with a valid token gets: bytes from storage, or a redirect to where the bytes are. */
export type MediaSource = { kind: 'redirect'; url: string } | { kind: 'stored'; object: StoredObject; downloadName: string | null };

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

/** GET /media/mixes/{mixId}/{purpose}?token=: checks the token, then says where the bytes are. */
export async function resolveMedia(deps: MixAccessDeps, mixId: string, purpose: MediaPurpose, token: string, now = new Date()): Promise<MediaSource> {
  const verified = deps.tokens.verify(token, tokenScope(mixId, purpose), now.getTime());
  if (!verified) throw forbidden(MIX_MESSAGES.linkExpired, 'invalid_media_token');
  const mix = await playableMix(deps, mixId);
  // Only storage keys are written; anything else in the row is not a file of ours (never a redirect).
  if (!isMixStorageKey(mix.s3Url)) throw notFound(MIX_MESSAGES.fileNotAvailable, 'file_not_available');
  const name = purpose === 'download' ? downloadName(mix, mix.s3Url) : null;
  // The presigned URL lives no longer than the token that asked for it (and at least a minute).
  const expiresInS = Math.max(60, Math.ceil((verified.expiresAt.getTime() - now.getTime()) / SECOND_MS));
  const presigned = await deps.storage.presignedGetUrl(mix.s3Url, { expiresInS, downloadName: name ?? undefined });
  if (presigned) return { kind: 'redirect', url: presigned };
  const object = await deps.storage.stat(mix.s3Url);
  if (!object) throw notFound(MIX_MESSAGES.fileNotAvailable, 'file_not_available');
  return { kind: 'stored', object, downloadName: name };
}
