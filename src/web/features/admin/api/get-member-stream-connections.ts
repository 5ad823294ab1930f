import { queryOptions, useQuery } from '@tanstack/react-query';
import type { memberStreamConnectionsSchema, MemberStreamConnections } from '../../../../contracts/channels';
import { apiGet, type ReplyOf } from '../../../lib/http';
import { adminKeys } from './keys';

/** A member's premium-stream connections: open now, and the latest that ended. */
export async function getMemberStreamConnections(userId: string, signal?: AbortSignal): Promise<MemberStreamConnections> {
  return await apiGet<ReplyOf<typeof memberStreamConnectionsSchema>>(`/api/admin/users/${encodeURIComponent(userId)}/stream-connections`, { signal });
}

export const useMemberStreamConnections = (userId: string) =>
  useQuery(
    queryOptions({
      queryKey: adminKeys.streamConnections(userId),
      queryFn: ({ signal }) => getMemberStreamConnections(userId, signal),
      // Who listens now changes by the minute while the view is open.
      staleTime: 10_000,
      refetchInterval: 30_000,
    }),
  );
