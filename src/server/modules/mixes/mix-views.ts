import type { AdminVipMix, VipMix } from '../../../contracts/mixes';
import type { MixRow } from './mixes-repository';

/** A mix as everyone sees it: never its storage address (that would bypass every limit). */
export function toVipMix(row: MixRow): VipMix {
  return {
    id: row.id,
    title: row.title,
    artist: row.artist,
    genre: row.genre,
    duration: row.duration,
    fileSize: row.fileSize,
    artworkUrl: row.artworkUrl,
    isExclusive: row.isExclusive,
    rating: row.rating,
    totalDownloads: row.totalDownloads,
    description: row.description,
    hasAudio: Boolean(row.s3Url),
  };
}

export function toAdminVipMix(row: MixRow): AdminVipMix {
  return {
    ...toVipMix(row),
    s3Url: row.s3Url,
    bitrateKbps: row.bitrateKbps,
    hidden: row.hidden,
    createdAt: row.createdAt.toISOString(),
    rendition: { state: row.renditionState, percent: row.renditionPercent, error: row.renditionError },
    plays: row.plays,
  };
}
