import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PostCommentResponse } from '../../../../contracts/community';
import { apiSend } from '../../../lib/http';
import { communityKeys } from './keys';

export interface PostCommentInput {
  articleId: string;
  content: string;
  articleTitle?: string;
  articleSource?: string;
}

/** POST /api/comments; the author is whoever is signed in. */
export async function postComment(input: PostCommentInput): Promise<PostCommentResponse> {
  return apiSend<PostCommentResponse>('POST', '/api/comments', input);
}

/** On success: that discussion's comments and the recent feeds are fetched again. */
export function usePostComment() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: postComment,
    onSuccess: (_res, input) => {
      void qc.invalidateQueries({ queryKey: communityKeys.comments(input.articleId) });
      void qc.invalidateQueries({ queryKey: ['community', 'recent'] });
    },
  });
}
