import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Comment } from '../../../../contracts/community';
import { apiGet } from '../../../lib/http';
import { COMMENTS_STALE_MS, communityKeys } from './keys';

/** GET /api/comments/{articleId}: the public list, plus the caller's own pending comments. */
export async function getComments(discussionId: string, signal?: AbortSignal): Promise<Comment[]> {
  return apiGet<Comment[]>(`/api/comments/${encodeURIComponent(discussionId)}`, { signal });
}

export const commentsQueryOptions = (discussionId: string) =>
  queryOptions({
    queryKey: communityKeys.comments(discussionId),
    queryFn: ({ signal }) => getComments(discussionId, signal),
    staleTime: COMMENTS_STALE_MS,
  });

export const useComments = (discussionId: string, enabled = true) => useQuery({ ...commentsQueryOptions(discussionId), enabled });
