import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SiteConfig } from '../../../../contracts/site';
import { apiGet } from '../../../lib/http';

/** The platform pages the upgrade screens link to (GET /api/site-config). */
export const getSiteConfig = (): Promise<SiteConfig> => apiGet<SiteConfig>('/api/site-config');

export const siteConfigQueryOptions = () =>
  queryOptions({ queryKey: ['/api/site-config'], queryFn: getSiteConfig, staleTime: 60 * 60 * 1000 });

export const useSiteConfig = () => useQuery(siteConfigQueryOptions());
