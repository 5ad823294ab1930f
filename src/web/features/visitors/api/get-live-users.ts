import { queryOptions, useQuery } from '@tanstack/react-query';
import type { liveUsersReplySchema, LiveUsersReply } from '../../../../contracts/live';
import { LIVE_MONITOR_REFRESH_MS } from '../../../../contracts/live-values';
import { apiGet, type ReplyOf } from '../../../lib/http';
import { visitorKeys } from './keys';

/** GET /api/admin/live-users. */
export const getLiveUsers = async (signal?: AbortSignal): Promise<LiveUsersReply> =>
  await apiGet<ReplyOf<typeof liveUsersReplySchema>>('/api/admin/live-users', { signal });

/** Refreshed every 10 s, also while the tab is in the background. */
export const liveUsersQueryOptions = () =>
  queryOptions({
    queryKey: visitorKeys.users,
    queryFn: ({ signal }) => getLiveUsers(signal),
    refetchInterval: LIVE_MONITOR_REFRESH_MS,
    refetchIntervalInBackground: true,
    staleTime: 0,
    retry: false,
  });

export const useLiveUsers = (enabled: boolean) => useQuery({ ...liveUsersQueryOptions(), enabled });
