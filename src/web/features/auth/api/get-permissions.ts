import { queryOptions, useQuery } from '@tanstack/react-query';
import { ANONYMOUS_PERMISSIONS, type Permissions } from '../../../../contracts/tier-policy';
import { apiGet } from '../../../lib/http';
import { AUTH_STALE_MS, authRetry, authRetryDelay, isAnonymousAnswer } from '../lib/auth-retry';

export const PERMISSIONS_QUERY_KEY = ['/api/user/permissions'] as const;

/** GET /api/user/permissions: the server's flags; all false for anonymous (401) or rate-limited (429) visitors. */
export async function getPermissions(signal?: AbortSignal): Promise<Permissions> {
  try {
    return await apiGet<Permissions>('/api/user/permissions', { signal });
  } catch (err) {
    if (isAnonymousAnswer(err, 'GET /api/user/permissions')) return ANONYMOUS_PERMISSIONS;
    throw err;
  }
}

export const permissionsQueryOptions = () =>
  queryOptions({
    queryKey: PERMISSIONS_QUERY_KEY,
    queryFn: ({ signal }) => getPermissions(signal),
    staleTime: AUTH_STALE_MS,
    retry: authRetry,
    retryDelay: authRetryDelay,
  });

/** The visitor's permission flags; while loading or after a failure, treat `data ?? ANONYMOUS_PERMISSIONS`. */
export const usePermissions = () => useQuery(permissionsQueryOptions());
