import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TrackMonitorResponse } from '../../../../contracts/radio';
import { apiGet } from '../../../lib/http';
import { MINUTE_MS } from '../../../../contracts/time';

/** The track monitor is polled every 90 s and stale after 60 s. */
export const CURRENT_TRACK_POLL_MS = 90_000;
export const CURRENT_TRACK_STALE_MS = MINUTE_MS;

export const currentTrackKey = (channel: string) => ['/api/track-monitor/current', channel] as const;

export async function getCurrentTrack(channel: string, signal?: AbortSignal): Promise<TrackMonitorResponse> {
  return apiGet<TrackMonitorResponse>(`/api/track-monitor/current/${encodeURIComponent(channel)}`, { signal });
}

export const currentTrackQueryOptions = (channel: string) =>
  queryOptions({
    queryKey: currentTrackKey(channel),
    queryFn: ({ signal }) => getCurrentTrack(channel, signal),
    staleTime: CURRENT_TRACK_STALE_MS,
    refetchInterval: CURRENT_TRACK_POLL_MS,
  });

export const useCurrentTrack = (channel: string) => useQuery(currentTrackQueryOptions(channel));
