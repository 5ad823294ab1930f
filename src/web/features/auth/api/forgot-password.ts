import { useMutation } from '@tanstack/react-query';
import type { EmailBody, MessageReply } from '../../../../contracts/auth';
import { apiSend } from '../../../lib/http';

/** POST /api/auth/forgot-password: mails a reset link (same reply for unknown emails). */
export const forgotPassword = (body: EmailBody) => apiSend<MessageReply>('POST', '/api/auth/forgot-password', body);

export const useForgotPassword = () => useMutation({ mutationFn: forgotPassword });
