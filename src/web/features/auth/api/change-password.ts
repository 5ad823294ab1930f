import { useMutation } from '@tanstack/react-query';
import type { ChangePasswordBody, MessageReply } from '../../../../contracts/auth';
import { apiSend } from '../../../lib/http';

/** POST /api/auth/change-password: the current password and a new one; every other device is signed out. */
export const changePassword = (body: ChangePasswordBody) => apiSend<MessageReply>('POST', '/api/auth/change-password', body);

export const useChangePassword = () => useMutation({ mutationFn: changePassword });
