import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiSend } from '../../../lib/http';
import { communityKeys } from './keys';

/** POST /api/admin/chat/messages/{id}/approve and DELETE /api/admin/chat/messages/{id}: an admin decides a held chat message. */
export function useModerateChatMessage() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, decision }: { id: string; decision: 'approve' | 'remove' }) =>
      decision === 'approve'
        ? apiSend('POST', `/api/admin/chat/messages/${encodeURIComponent(id)}/approve`)
        : apiSend('DELETE', `/api/admin/chat/messages/${encodeURIComponent(id)}`),
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: communityKeys.moderation });
    },
  });
}
