import { MIX_MESSAGES, isMixStorageKey, type UpdateMix } from '../../../contracts/mixes';
import type { Db } from '../../db/client';
import { badRequest, conflict, notFound } from '../../lib/errors';
import type { MediaStorage } from '../../lib/storage/media-storage';
import { storeImageUpload } from '../../lib/uploads';
import { deleteMix, findMix, listMixes, requeueRendition, updateMix, type MixRow } from './mixes-repository';

/** Edits of the library by admins (ADR 0015). */

export async function updateMixDetails(db: Db, id: string, patch: UpdateMix): Promise<MixRow> {
  const row = await updateMix(db, id, patch);
  if (!row) throw notFound(MIX_MESSAGES.mixNotFound);
  return row;
}

/** PUT /api/admin/vip-mixes/{id}/artwork: checked and re-encoded like every picture (lib/images.ts), then linked. */
export async function setMixArtwork(db: Db, storage: MediaStorage, id: string, image: Buffer): Promise<MixRow> {
  // Checked first, so a picture for a mix that is not there is not stored.
  await updateMixDetails(db, id, {});
  const artworkUrl = await storeImageUpload(storage, image, 'artwork');
  const row = await updateMix(db, id, { artworkUrl });
  if (!row) throw notFound(MIX_MESSAGES.mixNotFound);
  return row;
}

/**
 * 'Edit Links': a storage key must name a file that is there (its size is taken from it); null clears
 * the link. Outside URLs are refused by the schema.
 */
export async function setMixLink(db: Db, storage: MediaStorage, id: string, s3Url: string | null): Promise<MixRow> {
  const patch: { s3Url: string | null; fileSize?: number } = { s3Url };
  if (s3Url) {
    const stored = await storage.stat(s3Url);
    if (!stored) throw badRequest(`No file at ${s3Url} in media storage`, 'file_not_found');
    patch.fileSize = stored.size;
  }
  const row = await updateMix(db, id, patch);
  if (!row) throw notFound(MIX_MESSAGES.mixNotFound);
  // A new file needs a new listening copy; until it is ready, lower tiers wait (VIPs play the master).
  return (await requeueRendition(db, id)) ?? row;
}

/** An admin's 'Retry': the listening copy is queued again from scratch (not while it is being made). */
export async function retryRendition(db: Db, id: string): Promise<MixRow> {
  const mix = await findMix(db, id);
  if (!mix) throw notFound(MIX_MESSAGES.mixNotFound);
  if (!mix.s3Url || !isMixStorageKey(mix.s3Url)) throw conflict(MIX_MESSAGES.noAudioToRender, 'no_audio');
  if (mix.renditionState === 'running') throw conflict(MIX_MESSAGES.renditionRunning, 'rendition_running');
  const row = await requeueRendition(db, id);
  if (!row) throw notFound(MIX_MESSAGES.mixNotFound);
  return row;
}

/** Deletes the mix, and its stored file unless another mix links to the same file. */
export async function deleteMixAndFile(db: Db, storage: MediaStorage, id: string): Promise<void> {
  const row = await deleteMix(db, id);
  if (!row) throw notFound(MIX_MESSAGES.mixNotFound);
  if (row.renditionKey) await storage.delete(row.renditionKey);
  const key = row.s3Url;
  if (!key || !isMixStorageKey(key)) return;
  const stillUsed = (await listMixes(db)).some((m) => m.s3Url === key);
  if (!stillUsed) await storage.delete(key);
}
