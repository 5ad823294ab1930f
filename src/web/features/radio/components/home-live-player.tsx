import { useChannel } from '../api/get-channels';
import { useShownNowPlaying } from '../hooks/use-shown-now-playing';
import { FREE_STREAM_CHANNEL, FREE_STREAM_NAME } from '../lib/fallbacks';
import { FREE_PLAYER } from '../lib/pop-out';
import { LivePlayer } from './live-player';
import { useFreeStreamTarget } from './radio-provider';

/** The home page's free live stream: Play, volume, Cast, the Sleep Timer menu and Pop Out (400x600). */
export function HomeLivePlayer({ className }: { className?: string }) {
  const { data: channel } = useChannel(FREE_STREAM_CHANNEL);
  const target = useFreeStreamTarget();
  return (
    <LivePlayer
      player={FREE_PLAYER}
      channel={FREE_STREAM_CHANNEL}
      source={target?.source}
      name={FREE_STREAM_NAME}
      quality={channel?.freeBitrateLabel ?? null}
      accent={channel?.colour ?? '#8b5cf6'}
      className={className}
    />
  );
}

/** The home page's now-playing line: the title, or the free stream's name and a status. */
export function useHomeNowPlaying() {
  return useShownNowPlaying(FREE_STREAM_CHANNEL, FREE_STREAM_NAME, { playing: false, retrying: false });
}
