import { queryOptions, useQuery } from '@tanstack/react-query';
import type { vipMixListSchema, VipMix } from '../../../../contracts/mixes';
import { apiGet, type ReplyOf } from '../../../lib/http';
import { vipKeys } from './keys';

/** GET /api/vip-mixes: on error the page shows an empty list. */
export async function getVipMixes(signal?: AbortSignal): Promise<VipMix[]> {
  try {
    return await apiGet<ReplyOf<typeof vipMixListSchema>>('/api/vip-mixes', { signal });
  } catch {
    return [];
  }
}

export const vipMixesQueryOptions = () => queryOptions({ queryKey: vipKeys.mixes, queryFn: ({ signal }) => getVipMixes(signal) });
export const useVipMixes = () => useQuery(vipMixesQueryOptions());
