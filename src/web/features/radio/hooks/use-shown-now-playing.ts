import { useNowPlaying } from '../api/get-live-metadata';
import { RECONNECTING } from './use-stream-player';

const NONE = { artist: '', title: '' } as const;

/** What a player shows as its title: the station's title, or the channel's name with a status line. */
export interface ShownNowPlaying {
  title: string;
  artist: string;
  /** False: `title` is the channel's name and `artist` a status, never a made-up track. */
  isLive: boolean;
}

/**
 * The title line of a player: the channel's now-playing when the station has one; otherwise the
 * channel's name and what is going on (reconnecting, off air), so a placeholder never looks like a track.
 * `passive`: no read of its own (useNowPlaying).
 */
export function useShownNowPlaying(
  channel: string,
  name: string,
  status: { playing: boolean; retrying: boolean },
  options: { passive?: boolean } = {},
): ShownNowPlaying {
  const now = useNowPlaying(channel, NONE, options);
  if (status.retrying) return { title: name, artist: RECONNECTING, isLive: false };
  if (now.isLive) return { title: now.title, artist: now.artist, isLive: true };
  const line = now.isLoading ? 'Live radio' : status.playing ? 'Title not available' : 'Off air right now';
  return { title: name, artist: line, isLive: false };
}
