import { queryOptions, useQuery } from '@tanstack/react-query';
import type { syncRunDetailSchema, SyncRunDetail } from '../../../../contracts/supporters';
import { apiGet, type ReplyOf } from '../../../lib/http';
import { adminKeys } from './keys';

/** One run of the sync log with its lines. */
export async function getSyncRun(id: number, signal?: AbortSignal): Promise<SyncRunDetail> {
  return await apiGet<ReplyOf<typeof syncRunDetailSchema>>(`/api/admin/sync-runs/${id}`, { signal });
}

export const syncRunQueryOptions = (id: number) =>
  queryOptions({ queryKey: adminKeys.syncRun(id), queryFn: ({ signal }) => getSyncRun(id, signal), staleTime: 60_000 });

export const useSyncRun = (id: number) => useQuery(syncRunQueryOptions(id));
