import { useQuery } from '@tanstack/react-query';
import type { RecentComment } from '../../../../contracts/community';
import { TICKER_NEWS_COUNT } from '../../../../contracts/news-values';
import { apiGet } from '../../../lib/http';
import { communityKeys } from '../../community';

/**
 * GET /api/comments/recent/5 for the home ticker (the top news plus recent comments), cached
 * 2 minutes. Under the community feature's key, so posting a comment refreshes it; read
 * without zod, as the home page's first load carries no validator (ADR 0010).
 */
export function useTickerComments() {
  return useQuery({
    queryKey: communityKeys.recent(TICKER_NEWS_COUNT),
    queryFn: ({ signal }) => apiGet<RecentComment[]>(`/api/comments/recent/${TICKER_NEWS_COUNT}`, { signal }),
    staleTime: 2 * 60 * 1000,
  });
}
