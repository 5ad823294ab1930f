import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AnalyticsOverview } from '../../../../contracts/analytics';
import { apiGet } from '../../../lib/http';
import { analyticsKeys } from './keys';

/** GET /api/admin/analytics/overview: what the page draws for the days [from, to]. */
export function getOverview(from: string, to: string, signal?: AbortSignal): Promise<AnalyticsOverview> {
  return apiGet<AnalyticsOverview>(`/api/admin/analytics/overview?${new URLSearchParams({ from, to }).toString()}`, { signal });
}

export const overviewQueryOptions = (from: string, to: string) =>
  queryOptions({
    queryKey: analyticsKeys.overview(from, to),
    queryFn: ({ signal }) => getOverview(from, to, signal),
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });

export function useOverview(from: string, to: string) {
  return useQuery(overviewQueryOptions(from, to));
}

/** The music report's address: a download the browser follows with the session cookie. */
export function musicReportUrl(from: string, to: string): string {
  return `/api/admin/analytics/music-report.csv?${new URLSearchParams({ from, to }).toString()}`;
}
