import { useQuery } from '@tanstack/react-query';
import type { ModerationQueue } from '../../../../contracts/community';
import { apiGet } from '../../../lib/http';
import { communityKeys } from './keys';

/** GET /api/admin/moderation/queue: every held comment and thread, with why, and the counts. */
export async function getHeldQueue(signal?: AbortSignal): Promise<ModerationQueue> {
  return apiGet<ModerationQueue>('/api/admin/moderation/queue', { signal });
}

export const useHeldQueue = () => useQuery({ queryKey: communityKeys.held, queryFn: ({ signal }) => getHeldQueue(signal), staleTime: 0 });
