import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateForumPost, ForumPost } from '../../../../contracts/news';
import { apiSend } from '../../../lib/http';
import { newsKeys } from './keys';

/** POST /api/forum/posts: a member starts a thread. */
export function useCreateForumPost() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateForumPost) => apiSend<ForumPost>('POST', '/api/forum/posts', body),
    onSuccess: () => qc.invalidateQueries({ queryKey: newsKeys.forum }),
  });
}
