import { queryOptions, useQuery } from '@tanstack/react-query';
import { unmatchedSupportersSchema, type UnmatchedSupporters } from '../../../../contracts/supporters';
import { apiGet } from '../../../lib/http';
import { adminKeys } from './keys';

/** Active platform supporters that match no account (the reconciliation list). */
export async function getUnmatchedSupporters(signal?: AbortSignal): Promise<UnmatchedSupporters> {
  return unmatchedSupportersSchema.parse(await apiGet<unknown>('/api/admin/supporters/unmatched', { signal }));
}

export const unmatchedSupportersQueryOptions = () =>
  queryOptions({ queryKey: adminKeys.unmatchedSupporters, queryFn: ({ signal }) => getUnmatchedSupporters(signal), staleTime: 10_000 });

export const useUnmatchedSupporters = () => useQuery(unmatchedSupportersQueryOptions());
