import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ForumPost } from '../../../../contracts/news';
import type { ForumFilter } from '../../../../contracts/news-values';
import { apiGet } from '../../../lib/http';
import { newsKeys } from './keys';

/** GET /api/forum/posts?category=&search=: member threads. A failed read is an error the page shows with Retry, never an empty forum. */
export async function getForumPosts(category: ForumFilter, search: string, signal?: AbortSignal): Promise<ForumPost[]> {
  const params = new URLSearchParams({ category });
  if (search) params.set('search', search);
  return await apiGet<ForumPost[]>(`/api/forum/posts?${params.toString()}`, { signal });
}

export function useForumPosts(category: ForumFilter, search: string) {
  return useQuery({
    queryKey: newsKeys.forumList(category, search),
    queryFn: ({ signal }) => getForumPosts(category, search, signal),
    placeholderData: keepPreviousData,
  });
}
