import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ModeratedComment, ModerationLogEntry } from '../../../../contracts/community';
import { apiGet } from '../../../lib/http';
import { communityKeys } from './keys';

/** GET /api/admin/comments/reported and /pending: the two moderation queues. */
export async function getModerationQueue(kind: 'reported' | 'pending', signal?: AbortSignal): Promise<ModeratedComment[]> {
  return apiGet<ModeratedComment[]>(`/api/admin/comments/${kind}`, { signal });
}

export const moderationQueueOptions = (kind: 'reported' | 'pending') =>
  queryOptions({
    queryKey: kind === 'reported' ? communityKeys.reported : communityKeys.pending,
    queryFn: ({ signal }) => getModerationQueue(kind, signal),
    staleTime: 0,
  });

export const useModerationQueue = (kind: 'reported' | 'pending') => useQuery(moderationQueueOptions(kind));

/** GET /api/admin/comments/log: who did what, newest first. */
export async function getModerationLog(signal?: AbortSignal): Promise<ModerationLogEntry[]> {
  return apiGet<ModerationLogEntry[]>('/api/admin/comments/log', { signal });
}

export const useModerationLog = () => useQuery({ queryKey: communityKeys.log, queryFn: ({ signal }) => getModerationLog(signal), staleTime: 0 });
