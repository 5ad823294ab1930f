import { Volume1, Volume2, VolumeX } from 'lucide-react';
import { useId } from 'react';
import { cn } from '../../../lib/cn';
import type { StreamPlayer } from '../hooks/use-stream-player';

/** Mute and the volume slider (0–100), in the channel's colour; `sliderClassName` hides the slider where there is no room. */
export function VolumeControl({
  stream,
  accent,
  showValue = false,
  className,
  sliderClassName,
}: {
  stream: Pick<StreamPlayer, 'volume' | 'muted' | 'setVolume' | 'toggleMute'>;
  accent: string;
  showValue?: boolean;
  className?: string;
  sliderClassName?: string;
}) {
  const { volume, muted, setVolume, toggleMute } = stream;
  const volumeId = useId();
  const VolumeIcon = muted || volume === 0 ? VolumeX : volume < 50 ? Volume1 : Volume2;
  return (
    <div className={cn('flex items-center gap-3', className)}>
      <button
        type="button"
        onClick={toggleMute}
        aria-label={muted ? 'Unmute' : 'Mute'}
        aria-pressed={muted}
        className="flex size-10 shrink-0 items-center justify-center rounded-full text-mist-300 transition hover:bg-white/5 hover:text-white"
      >
        <VolumeIcon className="size-5" aria-hidden="true" />
      </button>
      <label htmlFor={volumeId} className="sr-only">
        Volume
      </label>
      <input
        id={volumeId}
        type="range"
        min={0}
        max={100}
        step={1}
        value={muted ? 0 : volume}
        onChange={(e) => setVolume(Number(e.target.value))}
        className={cn('h-1.5 min-w-0 flex-1 cursor-pointer', sliderClassName)}
        style={{ accentColor: accent }}
      />
      {showValue && <span className="w-9 text-right text-xs text-mist-400 tabular-nums">{muted ? 0 : volume}</span>}
    </div>
  );
}
