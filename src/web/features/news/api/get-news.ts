import { queryOptions, useQuery } from '@tanstack/react-query';
import type { NewsItem } from '../../../../contracts/news';
import { MINUTE_MS } from '../../../../contracts/time';
import { apiGet } from '../../../lib/http';
import { newsKeys } from './keys';

/**
 * GET /api/rss/latest (15 min), /api/crawler/all (20 min), /api/articles/prioritized (10 min on the
 * forum, 15 on home): the cache times of the news reads. Read as their contract type (ADR 0010: zod stays on the server).
 */
export const rssLatestQuery = () =>
  queryOptions({ queryKey: newsKeys.rss, queryFn: ({ signal }) => apiGet<NewsItem[]>('/api/rss/latest', { signal }), staleTime: 15 * MINUTE_MS });

export const crawlerQuery = () =>
  queryOptions({ queryKey: newsKeys.web, queryFn: ({ signal }) => apiGet<NewsItem[]>('/api/crawler/all', { signal }), staleTime: 20 * MINUTE_MS });

export const prioritizedQuery = (staleMs: number) =>
  queryOptions({ queryKey: newsKeys.prioritized, queryFn: ({ signal }) => apiGet<NewsItem[]>('/api/articles/prioritized', { signal }), staleTime: staleMs });

export const useRssLatest = () => useQuery(rssLatestQuery());
export const useCrawler = () => useQuery(crawlerQuery());
/** Home page: 15 minutes, first 5 used; the forum: 10 minutes. */
export const usePrioritized = (staleMs: number = 15 * MINUTE_MS) => useQuery(prioritizedQuery(staleMs));
