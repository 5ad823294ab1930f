import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { adminVipMixSchema } from '../../../../contracts/mixes';
import { apiSend, type ReplyOf } from '../../../lib/http';
import { vipKeys } from './keys';

/** POST /api/admin/vip-mixes/{id}/rendition: make the listening copy again ('Retry'). */
export const useRetryRendition = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => await apiSend<ReplyOf<typeof adminVipMixSchema>>('POST', `/api/admin/vip-mixes/${encodeURIComponent(id)}/rendition`),
    onSettled: () => client.invalidateQueries({ queryKey: vipKeys.adminMixes }),
  });
};
