import { queryOptions, useQuery } from '@tanstack/react-query';
import { adminStatsSchema, type AdminStats } from '../../../../contracts/admin';
import { apiGet } from '../../../lib/http';
import { adminKeys } from './keys';

export const EMPTY_STATS: AdminStats = {
  totalUsers: 0,
  activeSubscribers: 0,
  vipUsers: 0,
  dhr2Users: 0,
  dhr1Users: 0,
  freeUsers: 0,
  cancelledWithAccess: 0,
  expiredUsers: 0,
  totalTracks: 0,
  totalMixes: 0,
  todayDownloads: 0,
  storageUsed: 0,
  statusCounts: { active: 0, inactive: 0, cancelled: 0, cancelled_with_access: 0, expired: 0 },
  pledgeBands: { free: 0, dhr1: 0, dhr2: 0, vip: 0 },
  unmatchedSupporters: 0,
  supportersHeld: 0,
  moderationPending: 0,
  contactUnhandled: 0,
  submissionsUnreviewed: 0,
  buckets: { active: 0, cancelledWithAccess: 0, expired: 0, free: 0 },
};

/**
 * A failing or malformed stats reply is only logged and the figures become 0,
 * so the dashboard still renders. console.warn, not error: it is an expected degraded state.
 */
export async function getAdminStats(signal?: AbortSignal): Promise<AdminStats> {
  try {
    const parsed = adminStatsSchema.safeParse(await apiGet<unknown>('/api/admin/stats', { signal }));
    if (parsed.success) return parsed.data;
    console.warn('Admin stats: unexpected reply shape', parsed.error.issues);
  } catch (err) {
    if (signal?.aborted) throw err;
    console.warn('Admin stats could not be loaded:', err instanceof Error ? err.message : err);
  }
  return EMPTY_STATS;
}

export const adminStatsQueryOptions = () => queryOptions({ queryKey: adminKeys.stats, queryFn: ({ signal }) => getAdminStats(signal), staleTime: 30_000 });

export function useAdminStats() {
  return useQuery(adminStatsQueryOptions());
}
