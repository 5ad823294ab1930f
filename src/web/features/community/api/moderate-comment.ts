import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiSend } from '../../../lib/http';
import { communityKeys } from './keys';

export type ModerationCall =
  { action: 'approve' | 'reject' | 'delete'; commentId: string } | { action: 'ban'; userId: string; reason: string; expiresAt: string | null };

/**
 * PATCH /api/admin/comments/{id}/approve | /reject, DELETE /api/admin/comments/{id}/permanent,
 * POST /api/admin/users/{id}/ban-comments. The moderator is the signed-in admin.
 */
export function moderate(call: ModerationCall): Promise<{ message: string }> {
  if (call.action === 'ban') {
    return apiSend('POST', `/api/admin/users/${encodeURIComponent(call.userId)}/ban-comments`, { reason: call.reason, expiresAt: call.expiresAt });
  }
  const id = encodeURIComponent(call.commentId);
  if (call.action === 'delete') return apiSend('DELETE', `/api/admin/comments/${id}/permanent`);
  return apiSend('PATCH', `/api/admin/comments/${id}/${call.action}`, {});
}

/** Both queues and the log reload after each action; public lists too. */
export function useModerate() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: moderate,
    // Not awaited: the refetch drops the decided card, and the caller's own callbacks (the spec's alert)
    // must still run, which they do not once their component has unmounted.
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: communityKeys.all });
    },
  });
}
