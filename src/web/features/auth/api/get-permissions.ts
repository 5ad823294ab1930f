import { queryOptions, useQuery } from '@tanstack/react-query';
import { ANONYMOUS_PERMISSIONS, type Permissions } from '../../../../contracts/tier-policy';
import { apiGet } from '../../../lib/http';
import { AUTH_STALE_MS, authRetry, authRetryDelay, isAnonymousAnswer, PREMIUM_AUTH_STALE_MS } from '../lib/auth-retry';

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

/**
 * How a page reads the permissions: a premium page (behind a tier gate) trusts them 5 minutes and
 * never retries (a failure shows at once instead of holding the gate); other pages 10 minutes, retried.
 */
export type PermissionsReading = 'standard' | 'premium';

export const permissionsQueryOptions = (reading: PermissionsReading = 'standard') =>
  queryOptions({
    queryKey: PERMISSIONS_QUERY_KEY,
    queryFn: ({ signal }) => getPermissions(signal),
    staleTime: reading === 'premium' ? PREMIUM_AUTH_STALE_MS : AUTH_STALE_MS,
    retry: reading === 'premium' ? false : authRetry,
    retryDelay: authRetryDelay,
  });

/** The visitor's permission flags; while loading or after a failure, treat `data ?? ANONYMOUS_PERMISSIONS`. */
export const usePermissions = (reading: PermissionsReading = 'standard') => useQuery(permissionsQueryOptions(reading));
