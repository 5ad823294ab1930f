import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SiteConfig } from '../../../../contracts/site';
import { apiGet } from '../../../lib/http';
import { HOUR_MS } from '../../../../contracts/time';

/** The platform pages the upgrade screens link to (GET /api/site-config). */
export const getSiteConfig = (): Promise<SiteConfig> => apiGet<SiteConfig>('/api/site-config');

export const siteConfigQueryOptions = () => queryOptions({ queryKey: ['/api/site-config'], queryFn: getSiteConfig, staleTime: HOUR_MS });

export const useSiteConfig = () => useQuery(siteConfigQueryOptions());
