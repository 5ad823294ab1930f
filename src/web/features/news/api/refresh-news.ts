import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { NewsRefreshResult } from '../../../../contracts/news';
import { apiSend } from '../../../lib/http';
import { newsKeys } from './keys';

/** The server fetches queued sources in the background: the lists are read again once it has had time to. */
const REREAD_AFTER_MS = 4000;

/** POST /api/news/refresh: the server queues the due sources (rate-limited); the lists are read now and again a little later. */
export function useRefreshNews() {
  const qc = useQueryClient();
  const reread = () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: newsKeys.rss }),
      qc.invalidateQueries({ queryKey: newsKeys.web }),
      qc.invalidateQueries({ queryKey: newsKeys.prioritized }),
    ]);
  return useMutation({
    mutationFn: () => apiSend<NewsRefreshResult>('POST', '/api/news/refresh', {}),
    onSuccess: (result) => {
      if (result.queued > 0) setTimeout(() => void reread(), REREAD_AFTER_MS);
    },
    onSettled: reread,
  });
}
