import { queryOptions, useQuery } from '@tanstack/react-query';
import { type AuthUser } from '../../../../contracts/auth';
import { apiGet } from '../../../lib/http';
import { AUTH_STALE_MS, authRetry, authRetryDelay, isAnonymousAnswer } from '../lib/auth-retry';

export const ME_QUERY_KEY = ['/api/auth/me'] as const;

/** GET /api/auth/me: the signed-in member, or null when anonymous (401) or rate limited (429). */
export async function getMe(signal?: AbortSignal): Promise<AuthUser | null> {
  try {
    return await apiGet<AuthUser>('/api/auth/me', { signal });
  } catch (err) {
    if (isAnonymousAnswer(err, 'GET /api/auth/me')) return null;
    throw err;
  }
}

export const meQueryOptions = () =>
  queryOptions({
    queryKey: ME_QUERY_KEY,
    queryFn: ({ signal }) => getMe(signal),
    staleTime: AUTH_STALE_MS,
    retry: authRetry,
    retryDelay: authRetryDelay,
  });

/** The signed-in member; `data` is null when anonymous (and undefined while loading or after a failure). */
export const useMe = () => useQuery(meQueryOptions());
