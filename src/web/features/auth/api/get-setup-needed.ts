import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SetupNeededReply } from '../../../../contracts/auth';
import { apiGet } from '../../../lib/http';

export const SETUP_NEEDED_QUERY_KEY = ['/api/admin/setup-needed'] as const;

/** GET /api/admin/setup-needed: true until the first admin exists. */
export const getSetupNeeded = (signal?: AbortSignal) => apiGet<SetupNeededReply>('/api/admin/setup-needed', { signal });

export const setupNeededQueryOptions = () => queryOptions({ queryKey: SETUP_NEEDED_QUERY_KEY, queryFn: ({ signal }) => getSetupNeeded(signal) });

export const useSetupNeeded = () => useQuery(setupNeededQueryOptions());
