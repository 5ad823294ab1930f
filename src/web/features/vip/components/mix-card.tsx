import { Download, Lock, Music2, Pause, Play, Star } from 'lucide-react';
import { Link } from 'react-router';
import { MIX_MESSAGES } from '../../../../contracts/mix-values';
import type { VipMix } from '../../../../contracts/mixes';
import { Badge } from '../../../components/ui/badge';
import { formatDuration } from '../../../lib/dates';
import { cn } from '../../../lib/cn';
import { formatBytes } from '../lib/mix-access';
import { MIX_DOWNLOAD_TIER } from '../../../../contracts/tier-policy';
import { tierLabel } from '../../../../contracts/tier-table';

export interface MixCardProps {
  mix: VipMix;
  playing: boolean;
  onPlay: () => void;
  onDownload: () => void;
  downloading: boolean;
  /** Today's downloads are used up: the download button is disabled and says when they come back. */
  noDownloadsLeft?: boolean;
  /** The member's tier has no downloads: Download shows locked, says why and links to the upgrade. */
  downloadLocked?: { signedIn: boolean } | undefined;
  /** A card at the top of the grid: its artwork loads at once, ahead of others (it is the page's largest paint). */
  priority?: boolean;
}

/** One mix: artwork, exclusive badge, rating, title, artist, duration, size, downloads, Play/Pause and download. */
export function MixCard({ mix, playing, onPlay, onDownload, downloading, noDownloadsLeft = false, downloadLocked, priority = false }: MixCardProps) {
  return (
    <article
      data-testid="mix-card"
      data-mix-id={mix.id}
      className={cn('glass group flex flex-col overflow-hidden rounded-3xl transition', playing && 'ring-2 ring-aqua-400/60')}
    >
      <div className="relative aspect-square overflow-hidden bg-gradient-to-br from-deep-700 via-violet-800 to-aqua-800">
        {mix.artworkUrl ? (
          <img
            src={mix.artworkUrl}
            alt=""
            loading={priority ? 'eager' : 'lazy'}
            fetchPriority={priority ? 'high' : 'auto'}
            className="size-full object-cover transition duration-500 group-hover:scale-105"
          />
        ) : (
          <Music2 className="absolute inset-0 m-auto size-16 text-white/40" aria-hidden="true" />
        )}
        {mix.isExclusive && (
          <Badge tone="gold" className="absolute top-3 left-3 backdrop-blur">
            Exclusive {tierLabel('vip')}
          </Badge>
        )}
        <span className="absolute top-3 right-3 inline-flex items-center gap-1 rounded-full bg-black/50 px-2 py-0.5 text-xs font-semibold text-amber-200 backdrop-blur">
          <Star className="size-3 fill-amber-300 text-amber-300" aria-hidden="true" /> {mix.rating.toFixed(1)}
        </span>
      </div>
      <div className="flex flex-1 flex-col gap-3 p-4 sm:p-5">
        <div>
          <h2 className="font-display text-lg leading-tight font-bold text-white">{mix.title}</h2>
          <p className="text-sm text-aqua-200">{mix.artist}</p>
        </div>
        {mix.description && <p className="line-clamp-2 text-sm text-mist-300">{mix.description}</p>}
        <dl className="mt-auto grid grid-cols-3 gap-2 text-xs text-mist-400">
          <div>
            <dt className="sr-only">Duration</dt>
            <dd>{formatDuration(mix.duration)}</dd>
          </div>
          <div>
            <dt className="sr-only">File size</dt>
            <dd>{formatBytes(mix.fileSize)}</dd>
          </div>
          <div className="text-right">
            <dt className="sr-only">Downloads</dt>
            <dd>
              {mix.totalDownloads} <span className="text-mist-500">{mix.totalDownloads === 1 ? 'download' : 'downloads'}</span>
            </dd>
          </div>
        </dl>
        <div className="flex gap-2">
          <button
            type="button"
            onClick={onPlay}
            aria-label={`${playing ? 'Pause' : 'Play'} ${mix.title}`}
            className="inline-flex h-10 flex-1 items-center justify-center gap-2 rounded-full bg-gradient-to-r from-deep-600 via-violet-500 to-aqua-500 text-sm font-semibold text-white transition hover:brightness-110"
          >
            {playing ? <Pause className="size-4" aria-hidden="true" /> : <Play className="size-4" aria-hidden="true" />}
            {playing ? 'Pause' : 'Play'}
          </button>
          {downloadLocked ? (
            <Link
              to={downloadLocked.signedIn ? '/auth' : '/simple-auth'}
              aria-label={`Download ${mix.title}: ${MIX_MESSAGES.vipRequiredForDownloads}. Upgrade`}
              title={MIX_MESSAGES.vipRequiredForDownloads}
              data-testid="download-locked"
              className="inline-flex size-10 items-center justify-center rounded-full text-mist-500 ring-1 ring-white/10 ring-dashed transition hover:text-amber-200"
            >
              <Lock className="size-4" aria-hidden="true" />
            </Link>
          ) : (
            !noDownloadsLeft && (
              <button
                type="button"
                onClick={onDownload}
                disabled={downloading}
                aria-label={`Download ${mix.title}`}
                className="glass inline-flex size-10 items-center justify-center rounded-full text-mist-100 transition hover:bg-white/10 disabled:opacity-50"
              >
                <Download className="size-4" aria-hidden="true" />
              </button>
            )
          )}
        </div>
        {downloadLocked && (
          <p className="text-xs text-mist-400">
            <Lock className="mr-1 inline size-3 align-[-1px]" aria-hidden="true" />
            Downloads are a {tierLabel(MIX_DOWNLOAD_TIER)} benefit.{' '}
            <Link to={downloadLocked.signedIn ? '/auth' : '/simple-auth'} className="font-semibold text-amber-200 hover:text-white">
              Upgrade
            </Link>
          </p>
        )}
        {noDownloadsLeft && (
          <button
            type="button"
            disabled
            data-testid="no-downloads-left"
            className="glass inline-flex min-h-10 items-center justify-center gap-2 rounded-full px-4 py-2 text-xs font-medium text-mist-300 opacity-80"
          >
            <Download className="size-4 shrink-0" aria-hidden="true" />
            {MIX_MESSAGES.noDownloadsLeft}
          </button>
        )}
      </div>
    </article>
  );
}
