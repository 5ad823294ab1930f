import { queryOptions, useQuery } from '@tanstack/react-query';
import type { LiveMetadata } from '../../../../contracts/radio';
import { ApiError, apiGet } from '../../../lib/http';
import { useSyncExternalStore } from 'react';
import { heardTitles } from '../lib/heard-titles';
import { useLiveEventsConnected } from './live-events';

/** Live metadata polled every 90 s, stale after 45 s, refetched on mount and focus. */
export const LIVE_METADATA_POLL_MS = 90_000;
export const LIVE_METADATA_STALE_MS = 45_000;

/** Cache key of a channel's now-playing; the SSE stream writes to the same key. */
export const liveMetadataKey = (channel: string) => ['live-metadata', channel] as const;

/** Data lacking artist or title is ignored. */
export function usableMetadata(data: LiveMetadata | null | undefined): LiveMetadata | null {
  return data && data.artist.trim() && data.title.trim() ? data : null;
}

/**
 * The channel's now-playing, or null when the channel is off air (503 or any non-ok answer).
 * dhr1 (the free stream too) reads /api/live-metadata; other channels their own path with the
 * spec's cache busting.
 */
export async function getLiveMetadata(channel: string, signal?: AbortSignal): Promise<LiveMetadata | null> {
  const t = Date.now();
  const path = channel === 'dhr1' ? `/api/live-metadata?t=${t}` : `/api/live-metadata/${encodeURIComponent(channel)}?t=${t}&nocache=1`;
  try {
    const data = await apiGet<LiveMetadata>(path, {
      signal,
      cache: 'no-store',
      headers: channel === 'dhr1' ? {} : { 'Cache-Control': 'no-cache', Pragma: 'no-cache' },
    });
    return usableMetadata(data);
  } catch (err) {
    if (err instanceof ApiError) return null;
    throw err;
  }
}

export const liveMetadataQueryOptions = (channel: string, polling: boolean) =>
  queryOptions({
    queryKey: liveMetadataKey(channel),
    queryFn: ({ signal }) => getLiveMetadata(channel, signal),
    staleTime: LIVE_METADATA_STALE_MS,
    refetchInterval: polling ? LIVE_METADATA_POLL_MS : false,
    refetchOnMount: true,
    refetchOnWindowFocus: true,
  });

/**
 * Now playing for a channel with the caller's fallback: the one source every surface reads (player,
 * pop-out, channel and home lines, live track card). The title a player on this page hears in the
 * stream comes first; otherwise the server's, pushed by SSE, polled only while the event stream is down.
 * `passive` reads no endpoint itself.
 */
export function useNowPlaying(channel: string, fallback: { artist: string; title: string }, { passive = false }: { passive?: boolean } = {}) {
  const connected = useLiveEventsConnected();
  // Passive (the site's player bar, on every page): only what the event stream pushes (every channel
  // on connect, then each change), the stream's own titles and what the page's widgets read; no read of its own.
  const query = useQuery({ ...liveMetadataQueryOptions(channel, !connected), enabled: !passive });
  const heard = useSyncExternalStore(heardTitles.subscribe, () => heardTitles.get(channel));
  const live = heard ?? (query.isError ? null : usableMetadata(query.data));
  return {
    artist: live?.artist ?? fallback.artist,
    title: live?.title ?? fallback.title,
    album: live?.album ?? '',
    listeners: (query.isError ? null : query.data?.listeners) ?? null,
    bitrate: (query.isError ? null : query.data?.bitrate) ?? null,
    /** ISO time this title started, as far as this page knows. */
    updatedAt: live?.updatedAt ?? null,
    /** True when the values are the station's own, not the fallback. */
    isLive: live !== null,
    isLoading: query.isPending,
  };
}
