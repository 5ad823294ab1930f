import { queryOptions, useQuery } from '@tanstack/react-query';
import { downloadStatsSchema } from '../../../../contracts/admin';
import { apiGet } from '../../../lib/http';
import { adminKeys } from './keys';

/** Today's downloads; a failed or malformed reply is logged and counts as 0. */
export async function getTodayDownloads(signal?: AbortSignal): Promise<number> {
  try {
    const parsed = downloadStatsSchema.safeParse(await apiGet<unknown>('/api/admin/download-stats', { signal }));
    if (parsed.success) return parsed.data.today;
    console.warn('Download stats: unexpected reply shape', parsed.error.issues);
  } catch (err) {
    if (signal?.aborted) throw err;
    console.warn('Download stats could not be loaded:', err instanceof Error ? err.message : err);
  }
  return 0;
}

export const downloadStatsQueryOptions = () =>
  queryOptions({ queryKey: adminKeys.downloadStats, queryFn: ({ signal }) => getTodayDownloads(signal), staleTime: 30_000 });

export function useTodayDownloads() {
  return useQuery(downloadStatsQueryOptions());
}
