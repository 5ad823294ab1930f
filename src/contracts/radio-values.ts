/** Radio constants the web app uses at run time, free of zod (radio.ts re-exports them with its schemas). */

/** The service name used when a track comes from the stream's own metadata (the spec's "DHR2 metadata service"). */
export const METADATA_SERVICE = 'icecast-metadata';

/** Identified at 80+, medium 50-79, low below 50. */
export const CONFIDENCE_IDENTIFIED = 80;
export const CONFIDENCE_MEDIUM = 50;
/** At most 1000 tracks per list; at most 3 recommendations. */
export const TRACK_LIST_MAX = 1000;
export const RECOMMENDATIONS_MAX = 3;

/** Event name of GET /api/live/events (Server-Sent Events). */
export const NOW_PLAYING_EVENT = 'now-playing';

const SEARCH_PREFIXES = {
  youtubeUrl: 'https://www.youtube.com/results?search_query=',
  soundcloudUrl: 'https://soundcloud.com/search?q=',
  spotifyUrl: 'https://open.spotify.com/search/',
} as const;

/** Search URLs used when an identification has no direct link (never invented tracks, only searches). */
export function searchUrls(artist: string, title: string): { youtubeUrl: string; soundcloudUrl: string; spotifyUrl: string } {
  const q = encodeURIComponent(`${artist} ${title}`.trim());
  return {
    youtubeUrl: `${SEARCH_PREFIXES.youtubeUrl}${q}`,
    soundcloudUrl: `${SEARCH_PREFIXES.soundcloudUrl}${q}`,
    spotifyUrl: `${SEARCH_PREFIXES.spotifyUrl}${q}`,
  };
}

/** Whether a track URL is one of those searches rather than a link to the track itself. */
export function isSearchUrl(url: string): boolean {
  return Object.values(SEARCH_PREFIXES).some((prefix) => url.startsWith(prefix));
}
