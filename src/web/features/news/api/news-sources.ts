import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateNewsSource, NewsSource, UpdateNewsSource } from '../../../../contracts/news';
import { apiGet, apiSend } from '../../../lib/http';
import { newsKeys } from './keys';

/** The admin's news sources: GET, POST, PATCH, DELETE /api/admin/news-sources and POST …/{id}/fetch, …/{id}/resume. */

export function useNewsSources() {
  return useQuery({ queryKey: newsKeys.sources, queryFn: ({ signal }) => apiGet<NewsSource[]>('/api/admin/news-sources', { signal }), staleTime: 0 });
}

function useSourceMutation<TVars>(fn: (vars: TVars) => Promise<unknown>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    // A source change changes the public lists too.
    onSettled: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: newsKeys.sources }),
        qc.invalidateQueries({ queryKey: newsKeys.rss }),
        qc.invalidateQueries({ queryKey: newsKeys.web }),
        qc.invalidateQueries({ queryKey: newsKeys.prioritized }),
      ]),
  });
}

export const useAddNewsSource = () => useSourceMutation((body: CreateNewsSource) => apiSend<NewsSource>('POST', '/api/admin/news-sources', body));
export const useUpdateNewsSource = () =>
  useSourceMutation(({ id, patch }: { id: string; patch: UpdateNewsSource }) =>
    apiSend<NewsSource>('PATCH', `/api/admin/news-sources/${encodeURIComponent(id)}`, patch),
  );
export const useRemoveNewsSource = () => useSourceMutation((id: string) => apiSend<undefined>('DELETE', `/api/admin/news-sources/${encodeURIComponent(id)}`));
export const useFetchNewsSource = () =>
  useSourceMutation((id: string) => apiSend<NewsSource>('POST', `/api/admin/news-sources/${encodeURIComponent(id)}/fetch`));
/** Resume a paused source (by an admin, or by 7 days of failures): its failures are forgotten and it is fetched at once. */
export const useResumeNewsSource = () =>
  useSourceMutation((id: string) => apiSend<NewsSource>('POST', `/api/admin/news-sources/${encodeURIComponent(id)}/resume`));
