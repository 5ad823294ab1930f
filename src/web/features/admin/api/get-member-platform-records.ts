import { queryOptions, useQuery } from '@tanstack/react-query';
import type { memberPlatformRecordsSchema, MemberPlatformRecord } from '../../../../contracts/supporters';
import { apiGet, type ReplyOf } from '../../../lib/http';
import { adminKeys } from './keys';

/** The Patreon / Buy Me a Coffee records that feed one member's access. */
export async function getMemberPlatformRecords(userId: string, signal?: AbortSignal): Promise<MemberPlatformRecord[]> {
  return await apiGet<ReplyOf<typeof memberPlatformRecordsSchema>>(`/api/admin/users/${encodeURIComponent(userId)}/platform-records`, { signal });
}

export const memberPlatformRecordsQueryOptions = (userId: string) =>
  queryOptions({ queryKey: adminKeys.platformRecords(userId), queryFn: ({ signal }) => getMemberPlatformRecords(userId, signal), staleTime: 10_000 });

export const useMemberPlatformRecords = (userId: string) => useQuery(memberPlatformRecordsQueryOptions(userId));
