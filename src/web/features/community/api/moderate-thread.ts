import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiSend } from '../../../lib/http';
import { communityKeys } from './keys';

/** PATCH /api/admin/forum/posts/{id}/approve and DELETE /api/admin/forum/posts/{id}: an admin decides a held thread. */
export function useModerateThread() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, decision }: { id: string; decision: 'approve' | 'remove' }) =>
      decision === 'approve'
        ? apiSend('PATCH', `/api/admin/forum/posts/${encodeURIComponent(id)}/approve`)
        : apiSend('DELETE', `/api/admin/forum/posts/${encodeURIComponent(id)}`),
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: communityKeys.moderation });
    },
  });
}
