import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { downloadGrantSchema, DownloadGrant } from '../../../../contracts/mixes';
import { apiSend, type ReplyOf } from '../../../lib/http';
import { PERMISSIONS_QUERY_KEY } from '../../auth';
import { vipKeys } from './keys';

/** POST /api/download/{mixId} {userId}: counts one of today's downloads and returns its link. */
export async function requestDownload(mixId: string, userId: string): Promise<DownloadGrant> {
  return await apiSend<ReplyOf<typeof downloadGrantSchema>>('POST', `/api/download/${encodeURIComponent(mixId)}`, { userId });
}

export function useRequestDownload() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ mixId, userId }: { mixId: string; userId: string }) => requestDownload(mixId, userId),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: PERMISSIONS_QUERY_KEY });
      void client.invalidateQueries({ queryKey: vipKeys.mixes });
    },
  });
}
