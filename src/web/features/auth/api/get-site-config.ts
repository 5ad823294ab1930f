import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/http';

/** The platform pages the upgrade screens link to (GET /api/site-config). */
export interface PlatformLinks {
  patreonPageUrl: string;
  bmcPageUrl: string;
}

export const getSiteConfig = (): Promise<PlatformLinks> => apiGet<PlatformLinks>('/api/site-config');

export const siteConfigQueryOptions = () =>
  queryOptions({ queryKey: ['/api/site-config'], queryFn: getSiteConfig, staleTime: 60 * 60 * 1000 });

export const useSiteConfig = () => useQuery(siteConfigQueryOptions());
