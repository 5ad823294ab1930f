import { useMutation } from '@tanstack/react-query';
import type { EmailChangeBody } from '../../../../contracts/account';
import type { MessageReply } from '../../../../contracts/auth';
import { apiSend } from '../../../lib/http';

/** POST /api/me/email: mails a confirmation link to the new address (and, without a password, one to the current address); nothing changes until they are opened. */
export const requestEmailChange = (body: EmailChangeBody) => apiSend<MessageReply>('POST', '/api/me/email', body);

export function useRequestEmailChange() {
  return useMutation({ mutationFn: requestEmailChange });
}
