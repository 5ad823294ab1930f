import { useMutation } from '@tanstack/react-query';
import type { SubmissionBody } from '../../../../contracts/submissions';
import { apiSend } from '../../../lib/http';

/** How long the form shows its submitting state at least (the mail preparation takes 2 s). */
export const SUBMITTING_MS = 2000;

/** POST /api/submissions. */
export const submitMix = (body: SubmissionBody) => apiSend<{ message: string }>('POST', '/api/submissions', body);

export function useSubmitMix() {
  return useMutation({
    mutationFn: async (body: SubmissionBody) => {
      const [reply] = await Promise.all([submitMix(body), new Promise((r) => setTimeout(r, SUBMITTING_MS))]);
      return reply;
    },
  });
}
