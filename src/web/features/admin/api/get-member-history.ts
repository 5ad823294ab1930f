import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MemberHistory } from '../../../../contracts/admin';
import { apiGet } from '../../../lib/http';
import { adminKeys } from './keys';

/** GET /api/admin/users/{id}/history: every change of the member's tier, status or expiry, newest first. */
export async function getMemberHistory(userId: string, signal?: AbortSignal): Promise<MemberHistory> {
  return apiGet<MemberHistory>(`/api/admin/users/${encodeURIComponent(userId)}/history`, { signal });
}

export const memberHistoryQueryOptions = (userId: string) =>
  queryOptions({ queryKey: adminKeys.history(userId), queryFn: ({ signal }) => getMemberHistory(userId, signal), staleTime: 10_000 });

export const useMemberHistory = (userId: string) => useQuery(memberHistoryQueryOptions(userId));
