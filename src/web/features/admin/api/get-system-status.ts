import { queryOptions, useQuery } from '@tanstack/react-query';
import { systemStatusSchema, type SystemStatus } from '../../../../contracts/admin';
import { apiGet } from '../../../lib/http';
import { adminKeys } from './keys';

/** The live system status (database, platforms, last sync, channels), validated against the contract. */
export async function getSystemStatus(signal?: AbortSignal): Promise<SystemStatus> {
  return systemStatusSchema.parse(await apiGet<unknown>('/api/admin/system-status', { signal }));
}

export const systemStatusQueryOptions = () =>
  queryOptions({ queryKey: adminKeys.systemStatus, queryFn: ({ signal }) => getSystemStatus(signal), staleTime: 30_000 });

export function useSystemStatus() {
  return useQuery(systemStatusQueryOptions());
}
