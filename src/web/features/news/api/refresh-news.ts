import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { NewsRefreshResult } from '../../../../contracts/news';
import { apiSend } from '../../../lib/http';
import { newsKeys } from './keys';

/** POST /api/news/refresh: the server fetches the sources now (rate-limited), then the lists are read again. */
export function useRefreshNews() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => apiSend<NewsRefreshResult>('POST', '/api/news/refresh', {}),
    onSettled: async () => {
      await Promise.all([
        qc.invalidateQueries({ queryKey: newsKeys.rss }),
        qc.invalidateQueries({ queryKey: newsKeys.web }),
        qc.invalidateQueries({ queryKey: newsKeys.prioritized }),
      ]);
    },
  });
}
