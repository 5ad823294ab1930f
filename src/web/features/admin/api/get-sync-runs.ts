import { queryOptions, useQuery } from '@tanstack/react-query';
import type { syncRunListSchema, SyncRunSummary } from '../../../../contracts/supporters';
import { apiGet, type ReplyOf } from '../../../lib/http';
import { adminKeys } from './keys';

/** The latest syncs and webhook deliveries, newest first. */
export async function getSyncRuns(signal?: AbortSignal): Promise<SyncRunSummary[]> {
  return await apiGet<ReplyOf<typeof syncRunListSchema>>('/api/admin/sync-runs?limit=50', { signal });
}

export const syncRunsQueryOptions = () => queryOptions({ queryKey: adminKeys.syncRuns, queryFn: ({ signal }) => getSyncRuns(signal), staleTime: 10_000 });

export const useSyncRuns = () => useQuery(syncRunsQueryOptions());
