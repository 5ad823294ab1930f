import { queryOptions, useQuery } from '@tanstack/react-query';
import type { unmatchedSupportersSchema, UnmatchedSupporters } from '../../../../contracts/supporters';
import { apiGet, type ReplyOf } from '../../../lib/http';
import { adminKeys } from './keys';

/** Active platform supporters that match no account (the reconciliation list). */
export async function getUnmatchedSupporters(signal?: AbortSignal): Promise<UnmatchedSupporters> {
  return await apiGet<ReplyOf<typeof unmatchedSupportersSchema>>('/api/admin/supporters/unmatched', { signal });
}

export const unmatchedSupportersQueryOptions = () =>
  queryOptions({ queryKey: adminKeys.unmatchedSupporters, queryFn: ({ signal }) => getUnmatchedSupporters(signal), staleTime: 10_000 });

export const useUnmatchedSupporters = () => useQuery(unmatchedSupportersQueryOptions());
