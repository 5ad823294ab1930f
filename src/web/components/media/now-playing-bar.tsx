import { Pause, Play, X } from 'lucide-react';
import { formatDuration } from '../../lib/dates';
import type { PlayableMedia } from './use-media-player';

export interface NowPlayingBarProps {
  mix: PlayableMedia;
  playing: boolean;
  position: number;
  duration: number;
  onToggle: () => void;
  onSeek: (seconds: number) => void;
  onClose: () => void;
  /** The link could not be renewed: the bar says so, with Retry. */
  failed?: boolean;
  onRetry?: () => void;
}

/** The bottom bar while a mix is selected: title, artist, position with a seek slider, Play/Pause, close. */
export function NowPlayingBar({ mix, playing, position, duration, onToggle, onSeek, onClose, failed = false, onRetry }: NowPlayingBarProps) {
  const total = duration || mix.duration;
  return (
    // Just above the site's radio bar (features/radio's PlayerBar, 4rem tall at the bottom of every page).
    <div
      data-testid="now-playing"
      className="fixed inset-x-0 bottom-[calc(4rem+env(safe-area-inset-bottom))] z-40 border-t border-white/10 bg-night-950/90 backdrop-blur-xl"
    >
      <div className="mx-auto flex max-w-6xl items-center gap-3 px-4 py-3 sm:gap-5 sm:px-6">
        <button
          type="button"
          onClick={onToggle}
          aria-label={playing ? 'Pause' : 'Play'}
          className="inline-flex size-11 shrink-0 items-center justify-center rounded-full bg-gradient-to-r from-deep-600 to-aqua-500 text-white"
        >
          {playing ? <Pause className="size-5" aria-hidden="true" /> : <Play className="size-5" aria-hidden="true" />}
        </button>
        <div className="min-w-0 flex-1">
          <p className="truncate text-sm font-semibold text-white">{mix.title}</p>
          <p className="truncate text-xs text-aqua-200">{mix.artist}</p>
          {failed && (
            <p role="alert" className="mt-1 flex items-center gap-2 text-xs text-rose-200">
              Audio Error - File Not Available
              {onRetry && (
                <button type="button" onClick={onRetry} className="rounded-full bg-white/10 px-2.5 py-0.5 font-semibold text-white hover:bg-white/20">
                  Retry
                </button>
              )}
            </p>
          )}
          <div className="mt-1 flex items-center gap-2 text-[11px] text-mist-400 tabular-nums">
            <span data-testid="position">{formatDuration(position)}</span>
            <input
              type="range"
              min={0}
              max={Math.max(1, Math.floor(total))}
              value={Math.floor(position)}
              onChange={(e) => onSeek(Number(e.target.value))}
              aria-label="Position"
              className="h-1 flex-1 accent-aqua-400"
            />
            <span>{formatDuration(total)}</span>
          </div>
        </div>
        <button
          type="button"
          onClick={onClose}
          aria-label="Close player"
          className="inline-flex size-9 items-center justify-center rounded-full text-mist-300 hover:bg-white/10 hover:text-white"
        >
          <X className="size-5" aria-hidden="true" />
        </button>
      </div>
    </div>
  );
}
