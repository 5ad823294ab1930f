import { useMutation } from '@tanstack/react-query';
import type { EmailBody, MessageReply } from '../../../../contracts/auth';
import { apiSend } from '../../../lib/http';

/** POST /api/auth/set-password/request-code: mails a 6-digit code proving the email. */
export const requestPasswordCode = (body: EmailBody) => apiSend<MessageReply>('POST', '/api/auth/set-password/request-code', body);

export const useRequestPasswordCode = () => useMutation({ mutationFn: requestPasswordCode });
