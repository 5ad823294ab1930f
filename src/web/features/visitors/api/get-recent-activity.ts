import { queryOptions, useQuery } from '@tanstack/react-query';
import type { recentActivityReplySchema, Activity } from '../../../../contracts/live';
import { LIVE_MONITOR_REFRESH_MS } from '../../../../contracts/live-values';
import { apiGet, type ReplyOf } from '../../../lib/http';
import { visitorKeys } from './keys';

/** GET /api/admin/recent-activity. */
export const getRecentActivity = async (signal?: AbortSignal): Promise<Activity[]> =>
  await apiGet<ReplyOf<typeof recentActivityReplySchema>>('/api/admin/recent-activity', { signal });

export const recentActivityQueryOptions = () =>
  queryOptions({
    queryKey: visitorKeys.activity,
    queryFn: ({ signal }) => getRecentActivity(signal),
    refetchInterval: LIVE_MONITOR_REFRESH_MS,
    refetchIntervalInBackground: true,
    staleTime: 0,
    retry: false,
  });

export const useRecentActivity = (enabled: boolean) => useQuery({ ...recentActivityQueryOptions(), enabled });
