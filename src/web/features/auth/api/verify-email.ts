import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MessageReply, TokenBody } from '../../../../contracts/auth';
import { apiSend } from '../../../lib/http';

/** POST /api/auth/verify-email: confirms the email with the token the registration mail carried. */
export const verifyEmail = (body: TokenBody) => apiSend<MessageReply>('POST', '/api/auth/verify-email', body);

/** Confirms, then refreshes cached reads (a stored membership may apply now). */
export function useVerifyEmail() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: verifyEmail, onSuccess: () => qc.invalidateQueries() });
}
