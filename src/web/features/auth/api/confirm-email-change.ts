import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MessageReply, TokenBody } from '../../../../contracts/auth';
import { apiSend } from '../../../lib/http';

/** POST /api/me/email/confirm: a link of the change; the reply's message says whether the other link is still needed. */
export const confirmEmailChange = (body: TokenBody) => apiSend<MessageReply>('POST', '/api/me/email/confirm', body);

/** Confirms, then refreshes cached reads (the signed-in email changed). */
export function useConfirmEmailChange() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: confirmEmailChange, onSuccess: () => qc.invalidateQueries() });
}
