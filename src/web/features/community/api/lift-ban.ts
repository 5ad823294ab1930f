import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiSend } from '../../../lib/http';
import { communityKeys } from './keys';

/** DELETE /api/admin/users/{id}/ban-comments: lifts a member's ban. */
export function useLiftBan() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => apiSend<{ message: string }>('DELETE', `/api/admin/users/${encodeURIComponent(userId)}/ban-comments`),
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: communityKeys.moderation });
    },
  });
}
