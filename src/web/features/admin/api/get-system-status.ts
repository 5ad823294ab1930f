import { queryOptions, useQuery } from '@tanstack/react-query';
import type { systemStatusSchema, SystemStatus } from '../../../../contracts/admin';
import { apiGet, type ReplyOf } from '../../../lib/http';
import { adminKeys } from './keys';

/** The live system status (database, platforms, last sync, channels), validated against the contract. */
export async function getSystemStatus(signal?: AbortSignal): Promise<SystemStatus> {
  return await apiGet<ReplyOf<typeof systemStatusSchema>>('/api/admin/system-status', { signal });
}

export const systemStatusQueryOptions = () =>
  // Refetched while the dashboard is open so listener counts stay live.
  queryOptions({ queryKey: adminKeys.systemStatus, queryFn: ({ signal }) => getSystemStatus(signal), staleTime: 10_000, refetchInterval: 15_000 });

export function useSystemStatus() {
  return useQuery(systemStatusQueryOptions());
}
