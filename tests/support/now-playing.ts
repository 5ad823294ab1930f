import type { NowPlayingEvent } from '../../src/contracts/radio';

/** A channel on air playing "artist - title", as the poller would publish it. */
export function onAir(channel: string, artist: string, title: string, listeners = 1): NowPlayingEvent {
  return {
    channel,
    online: true,
    artist,
    title,
    album: '',
    current_track: `${artist} - ${title}`,
    listeners,
    bitrate: 128,
    updatedAt: new Date().toISOString(),
  };
}
