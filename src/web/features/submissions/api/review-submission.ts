import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Submission, SubmissionUpdate } from '../../../../contracts/submissions';
import { apiSend } from '../../../lib/http';
import { submissionKeys } from './keys';

/** PATCH /api/admin/submissions/:id. */
export const reviewSubmission = (id: string, change: SubmissionUpdate) =>
  apiSend<Submission>('PATCH', `/api/admin/submissions/${encodeURIComponent(id)}`, change);

export function useReviewSubmission() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, change }: { id: string; change: SubmissionUpdate }) => reviewSubmission(id, change),
    onSuccess: () => qc.invalidateQueries({ queryKey: submissionKeys.all }),
  });
}
