import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Comment, ReportReason } from '../../../../contracts/community';
import { apiSend } from '../../../lib/http';
import { communityKeys } from './keys';

/** POST /api/comments/{id}/report; the reporter is whoever is signed in. */
export function reportComment(input: { id: string; reason: ReportReason; discussionId: string }): Promise<{ message: string }> {
  return apiSend('POST', `/api/comments/${encodeURIComponent(input.id)}/report`, { reason: input.reason });
}

/** A reported comment leaves the reporter's list at once. */
export function useReportComment() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: reportComment,
    onSuccess: (_res, input) => {
      qc.setQueryData<Comment[]>(communityKeys.comments(input.discussionId), (list) => list?.filter((c) => c.id !== input.id));
    },
  });
}
