import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Channel } from '../../../../contracts/channels';
import { apiGet } from '../../../lib/http';
import { MINUTE_MS } from '../../../../contracts/time';

export async function getChannels(signal?: AbortSignal): Promise<Channel[]> {
  return apiGet<Channel[]>('/api/channels', { signal });
}

/** The channel list changes only when the operator edits it. */
export const channelsQueryOptions = () => queryOptions({ queryKey: ['/api/channels'], queryFn: ({ signal }) => getChannels(signal), staleTime: 5 * MINUTE_MS });

export function useChannels() {
  return useQuery(channelsQueryOptions());
}

/** One channel by id; `undefined` data while loading or when the id is unknown. */
export function useChannel(id: string | undefined) {
  return useQuery({ ...channelsQueryOptions(), select: (list) => list.find((c) => c.id === id) });
}
