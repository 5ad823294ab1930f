import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MessageReply, VerifyEmailBody } from '../../../../contracts/auth';
import { apiSend } from '../../../lib/http';

/** POST /api/auth/verify-email: the registration mail's token, and the password unless signed in as the account. */
export const verifyEmail = (body: VerifyEmailBody) => apiSend<MessageReply>('POST', '/api/auth/verify-email', body);

/** Confirms, then refreshes cached reads (a stored membership may apply now). */
export function useVerifyEmail() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: verifyEmail, onSuccess: () => qc.invalidateQueries() });
}
