/**
 * What the track widgets show when live metadata fails or lacks artist or title. The players show
 * the channel's name and a status instead (use-shown-now-playing.ts): never a title that looks like a track.
 */
export const PLAYER_FALLBACK = { artist: 'Deep House Radio', title: 'Live DJ Set' } as const;
export const DHR2_FALLBACK = { artist: 'DHR2 Live', title: 'Stream Connecting...' } as const;

/** The free stream: the DHR1 programme's public 128 kbps mount (the channel's freeStreamUrl). */
export const FREE_STREAM_CHANNEL = 'dhr1';
/** The home player's station line. */
export const FREE_STREAM_NAME = 'Free Stream';

export function playerFallback(channel: string) {
  return channel === 'dhr2' ? DHR2_FALLBACK : PLAYER_FALLBACK;
}
