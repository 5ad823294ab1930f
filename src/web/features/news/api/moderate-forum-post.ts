import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ForumPost } from '../../../../contracts/news';
import { apiSend } from '../../../lib/http';
import { newsKeys } from './keys';

/** PATCH /api/admin/forum/posts/{id}/approve and DELETE /api/admin/forum/posts/{id}: an admin decides a thread. */
export function useModerateForumPost() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, decision }: { id: string; decision: 'approve' | 'remove' }) =>
      decision === 'approve'
        ? apiSend<ForumPost>('PATCH', `/api/admin/forum/posts/${encodeURIComponent(id)}/approve`)
        : apiSend<undefined>('DELETE', `/api/admin/forum/posts/${encodeURIComponent(id)}`),
    onSettled: () => qc.invalidateQueries({ queryKey: newsKeys.forum }),
  });
}
