import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ForumPost } from '../../../../contracts/news';
import type { ForumFilter } from '../../../../contracts/news-values';
import { apiGet } from '../../../lib/http';
import { newsKeys } from './keys';

/** GET /api/forum/posts?category=&search=: member threads; an empty list on failure. */
export async function getForumPosts(category: ForumFilter, search: string, signal?: AbortSignal): Promise<ForumPost[]> {
  const params = new URLSearchParams({ category });
  if (search) params.set('search', search);
  try {
    return await apiGet<ForumPost[]>(`/api/forum/posts?${params.toString()}`, { signal });
  } catch (err) {
    if (signal?.aborted) throw err;
    return [];
  }
}

export function useForumPosts(category: ForumFilter, search: string) {
  return useQuery({
    queryKey: newsKeys.forumList(category, search),
    queryFn: ({ signal }) => getForumPosts(category, search, signal),
    placeholderData: keepPreviousData,
  });
}
