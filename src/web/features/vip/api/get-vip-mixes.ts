import { queryOptions, useQuery } from '@tanstack/react-query';
import type { vipMixListSchema, VipMix } from '../../../../contracts/mixes';
import { apiGet, type ReplyOf } from '../../../lib/http';
import { vipKeys } from './keys';

/** GET /api/vip-mixes. A failed read is an error the page shows with Retry, never an empty library. */
export async function getVipMixes(signal?: AbortSignal): Promise<VipMix[]> {
  return await apiGet<ReplyOf<typeof vipMixListSchema>>('/api/vip-mixes', { signal });
}

export const vipMixesQueryOptions = () => queryOptions({ queryKey: vipKeys.mixes, queryFn: ({ signal }) => getVipMixes(signal) });
export const useVipMixes = () => useQuery(vipMixesQueryOptions());
