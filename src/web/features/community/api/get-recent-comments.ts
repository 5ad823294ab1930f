import { queryOptions, useQuery } from '@tanstack/react-query';
import { recentCommentListSchema, type RecentComment } from '../../../../contracts/community';
import { apiGet } from '../../../lib/http';
import { COMMENTS_STALE_MS, communityKeys } from './keys';

/** GET /api/comments/recent/{limit}: the newest published comments (the news ticker shows 5). */
export async function getRecentComments(limit: number, signal?: AbortSignal): Promise<RecentComment[]> {
  return recentCommentListSchema.parse(await apiGet(`/api/comments/recent/${limit}`, { signal }));
}

export const recentCommentsQueryOptions = (limit = 5) =>
  queryOptions({ queryKey: communityKeys.recent(limit), queryFn: ({ signal }) => getRecentComments(limit, signal), staleTime: COMMENTS_STALE_MS });

export const useRecentComments = (limit = 5) => useQuery(recentCommentsQueryOptions(limit));
