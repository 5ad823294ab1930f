import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiSend } from '../../../lib/http';

/** DELETE /api/admin/track-history (admin): empties the history. */
export async function clearTrackHistory(): Promise<{ deleted: number }> {
  return apiSend<{ deleted: number }>('DELETE', '/api/admin/track-history');
}

export function useClearTrackHistory() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: clearTrackHistory,
    onSettled: async () => {
      await Promise.all([
        client.invalidateQueries({ queryKey: ['/api/admin/track-history'] }),
        client.invalidateQueries({ queryKey: ['/api/vip/track-history'] }),
        client.invalidateQueries({ queryKey: ['/api/tracks/recent'] }),
        client.invalidateQueries({ queryKey: ['/api/track-monitor/current'] }),
      ]);
    },
  });
}
