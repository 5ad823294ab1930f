import { cn } from '../../../lib/cn';
import { useRadio } from '../hooks/use-radio';
import { useShownNowPlaying } from '../hooks/use-shown-now-playing';
import { playerLabel } from '../hooks/use-stream-player';
import { FREE_STREAM_CHANNEL, FREE_STREAM_NAME } from '../lib/fallbacks';
import { ChannelArt } from './channel-art';
import { PlayButton } from './play-button';
import { VolumeControl } from './volume-control';

/**
 * The site's player bar, fixed at the bottom of every page at every width: play/pause, the channel,
 * what is playing and the volume. It drives the same player as the page's own player card.
 */
export function PlayerBar() {
  const { stream, target, playTarget } = useRadio();
  const { state, playing, retrying } = stream;
  const name = target?.name ?? FREE_STREAM_NAME;
  const accent = target?.accent ?? '#8b5cf6';
  // Passive: the bar is on every page, and reads nothing of its own (the event stream feeds it).
  const now = useShownNowPlaying(target?.channel ?? FREE_STREAM_CHANNEL, name, stream, { passive: true });
  const busy = state === 'loading' && !retrying;
  const stoppable = playing || retrying;
  const onPress = () => (stoppable ? stream.pause() : target && playTarget(target));
  return (
    <section
      aria-label="Player"
      data-testid="player-bar"
      className="fixed inset-x-0 bottom-0 z-40 border-t border-white/10 bg-night-950/85 pb-[env(safe-area-inset-bottom)] backdrop-blur-xl supports-[backdrop-filter]:bg-night-950/70"
    >
      <div className="mx-auto flex h-16 w-full max-w-7xl items-center gap-3 px-3 sm:px-6 lg:px-8">
        <PlayButton busy={busy || !target} stoppable={stoppable} onPress={onPress} />
        <ChannelArt accent={accent} spinning={playing && !busy} className="size-10 rounded-xl max-[340px]:hidden" />
        <div className="min-w-0 flex-1 leading-tight">
          <p className="flex items-center gap-2 text-[0.7rem] font-semibold tracking-[0.14em] text-mist-400 uppercase">
            <span className="shrink-0" data-testid="bar-channel">
              {name}
            </span>
            <span
              className={cn(
                'min-w-0 truncate tracking-normal normal-case',
                playing && !busy ? 'text-emerald-300' : state === 'error' ? 'text-rose-300' : 'text-mist-500',
              )}
              data-testid="bar-status"
            >
              · {playerLabel(state, playing, retrying)}
            </span>
          </p>
          <p className="truncate text-sm font-semibold text-white" data-testid="bar-title" title={`${now.artist} - ${now.title}`}>
            {now.title}
            <span className={cn('font-normal', now.isLive ? 'text-mist-300' : 'text-mist-400 italic')}> · {now.artist}</span>
          </p>
        </div>
        <VolumeControl stream={stream} accent={accent} className="shrink-0 gap-1 sm:w-44" sliderClassName="max-sm:hidden" />
      </div>
    </section>
  );
}
