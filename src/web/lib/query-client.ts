import { QueryClient, type QueryFunction } from '@tanstack/react-query';
import { apiGet } from './http';

/** Default reads: GET the path given by the query key. */
const defaultQueryFn: QueryFunction = ({ queryKey, signal }) => apiGet(String(queryKey[0]), { signal });

/** Cache defaults: retry once, no refetch on window focus, fresh for 5 minutes. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: defaultQueryFn,
        retry: 1,
        refetchOnWindowFocus: false,
        staleTime: 5 * 60 * 1000,
      },
    },
  });
}
