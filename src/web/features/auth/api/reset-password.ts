import { useMutation } from '@tanstack/react-query';
import type { MessageReply, ResetPasswordBody } from '../../../../contracts/auth';
import { apiSend } from '../../../lib/http';

/** POST /api/auth/reset-password: the emailed token and the new password. */
export const resetPassword = (body: ResetPasswordBody) => apiSend<MessageReply>('POST', '/api/auth/reset-password', body);

export const useResetPassword = () => useMutation({ mutationFn: resetPassword });
