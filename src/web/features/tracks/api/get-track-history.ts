import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TrackHistoryResponse } from '../../../../contracts/radio';
import { apiGet } from '../../../lib/http';
import { MINUTE_MS } from '../../../../contracts/time';

export type TrackHistoryScope = 'admin' | 'vip';

const PATHS: Record<TrackHistoryScope, string> = {
  admin: '/api/admin/track-history',
  vip: '/api/vip/track-history',
};

export const trackHistoryKey = (scope: TrackHistoryScope) => [PATHS[scope]] as const;

export async function getTrackHistory(scope: TrackHistoryScope, signal?: AbortSignal): Promise<TrackHistoryResponse> {
  return apiGet<TrackHistoryResponse>(PATHS[scope], { signal });
}

/** The monitor adds a track at most every 2 minutes; refresh at that pace. */
export const trackHistoryQueryOptions = (scope: TrackHistoryScope) =>
  queryOptions({
    queryKey: trackHistoryKey(scope),
    queryFn: ({ signal }) => getTrackHistory(scope, signal),
    staleTime: MINUTE_MS,
    refetchInterval: 120_000,
  });

export const useTrackHistory = (scope: TrackHistoryScope) => useQuery(trackHistoryQueryOptions(scope));
