import { useMemo } from 'react';
import { useChannel } from '../api/get-channels';
import { publicSource } from '../hooks/use-stream-player';
import { useNowPlaying } from '../api/get-live-metadata';
import { FREE_STREAM_CHANNEL, FREE_STREAM_NAME, HOME_FALLBACK } from '../lib/fallbacks';
import { FREE_PLAYER } from '../lib/pop-out';
import { LivePlayer } from './live-player';

/** The home page's free live stream: Play, volume, Cast, the Sleep Timer prompt and Pop Out (400x600). */
export function HomeLivePlayer({ className }: { className?: string }) {
  const { data: channel } = useChannel(FREE_STREAM_CHANNEL);
  const now = useNowPlaying(FREE_STREAM_CHANNEL, HOME_FALLBACK);
  const freeUrl = channel?.freeStreamUrl;
  const source = useMemo(() => (freeUrl ? publicSource(freeUrl) : undefined), [freeUrl]);
  return (
    <LivePlayer
      player={FREE_PLAYER}
      channel={FREE_STREAM_CHANNEL}
      source={source}
      name={FREE_STREAM_NAME}
      quality={channel?.freeBitrateLabel ?? null}
      nowPlaying={now}
      accent={channel?.colour ?? '#8b5cf6'}
      sleepMode="prompt"
      className={className}
    />
  );
}

/** The home page's now-playing line (hero and stats area). */
export function useHomeNowPlaying() {
  return useNowPlaying(FREE_STREAM_CHANNEL, HOME_FALLBACK);
}
