import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TrackIdentification } from '../../../../contracts/radio';
import { apiGet } from '../../../lib/http';

/** Recent tracks refetched every 2 minutes. */
export const RECENT_TRACKS_POLL_MS = 120_000;

export const recentTracksKey = (channel: string, limit: number) => ['/api/tracks/recent', channel, limit] as const;

export async function getRecentTracks(channel: string, limit: number, signal?: AbortSignal): Promise<TrackIdentification[]> {
  return apiGet<TrackIdentification[]>(`/api/tracks/recent/${encodeURIComponent(channel)}?limit=${limit}`, { signal });
}

export const recentTracksQueryOptions = (channel: string, limit = 20) =>
  queryOptions({
    queryKey: recentTracksKey(channel, limit),
    queryFn: ({ signal }) => getRecentTracks(channel, limit, signal),
    staleTime: RECENT_TRACKS_POLL_MS / 2,
    refetchInterval: RECENT_TRACKS_POLL_MS,
  });

export const useRecentTracks = (channel: string, limit = 20, enabled = true) => useQuery({ ...recentTracksQueryOptions(channel, limit), enabled });
