import { queryOptions, useQuery } from '@tanstack/react-query';
import type { anonymousStatsSchema, AnonymousStats } from '../../../../contracts/live';
import { LIVE_MONITOR_REFRESH_MS } from '../../../../contracts/live-values';
import { apiGet, type ReplyOf } from '../../../lib/http';
import { visitorKeys } from './keys';

/** GET /api/admin/anonymous-stats. */
export const getAnonymousStats = async (signal?: AbortSignal): Promise<AnonymousStats> =>
  await apiGet<ReplyOf<typeof anonymousStatsSchema>>('/api/admin/anonymous-stats', { signal });

export const anonymousStatsQueryOptions = () =>
  queryOptions({
    queryKey: visitorKeys.anonymous,
    queryFn: ({ signal }) => getAnonymousStats(signal),
    refetchInterval: LIVE_MONITOR_REFRESH_MS,
    refetchIntervalInBackground: true,
    staleTime: 0,
    retry: false,
  });

export const useAnonymousStats = (enabled: boolean) => useQuery({ ...anonymousStatsQueryOptions(), enabled });
