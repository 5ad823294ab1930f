import { queryOptions, useQuery } from '@tanstack/react-query';
import type { supporterLinksSchema, SupporterLinks } from '../../../../contracts/supporters';
import { apiGet, type ReplyOf } from '../../../lib/http';

export const SUPPORTER_LINKS_KEY = ['/api/supporters/links'] as const;

/** The member's linked platform identities (GET /api/supporters/links). */
export async function getSupporterLinks(signal?: AbortSignal): Promise<SupporterLinks> {
  return await apiGet<ReplyOf<typeof supporterLinksSchema>>('/api/supporters/links', { signal });
}

export const supporterLinksQueryOptions = () =>
  queryOptions({ queryKey: SUPPORTER_LINKS_KEY, queryFn: ({ signal }) => getSupporterLinks(signal), staleTime: 30_000 });

export const useSupporterLinks = () => useQuery(supporterLinksQueryOptions());
