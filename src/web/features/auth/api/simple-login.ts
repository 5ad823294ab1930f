import { useMutation } from '@tanstack/react-query';
import type { EmailBody, MessageReply } from '../../../../contracts/auth';
import { apiSend } from '../../../lib/http';

/** POST /api/auth/simple-login: mails a one-time sign-in link (same reply for unknown emails). */
export const simpleLogin = (body: EmailBody) => apiSend<MessageReply>('POST', '/api/auth/simple-login', body);

export const useSimpleLogin = () => useMutation({ mutationFn: simpleLogin });
