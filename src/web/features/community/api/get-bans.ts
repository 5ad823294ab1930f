import { useQuery } from '@tanstack/react-query';
import type { CommentBan } from '../../../../contracts/community';
import { apiGet } from '../../../lib/http';
import { communityKeys } from './keys';

/** GET /api/admin/bans: the bans in force. */
export async function getBans(signal?: AbortSignal): Promise<CommentBan[]> {
  return apiGet<CommentBan[]>('/api/admin/bans', { signal });
}

export const useBans = () => useQuery({ queryKey: communityKeys.bans, queryFn: ({ signal }) => getBans(signal), staleTime: 0 });
