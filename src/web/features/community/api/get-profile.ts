import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Profile } from '../../../../contracts/community';
import { apiGet } from '../../../lib/http';
import { communityKeys } from './keys';

/** GET /api/users/{id}/profile: 404 'Profile not found' when the caller may not see it. */
export async function getProfile(id: string, signal?: AbortSignal): Promise<Profile> {
  return apiGet<Profile>(`/api/users/${encodeURIComponent(id)}/profile`, { signal });
}

export const profileQueryOptions = (id: string) =>
  queryOptions({ queryKey: communityKeys.profile(id), queryFn: ({ signal }) => getProfile(id, signal), retry: false, staleTime: 30_000 });

export const useProfile = (id: string | null) => useQuery({ ...profileQueryOptions(id ?? ''), enabled: Boolean(id) });
