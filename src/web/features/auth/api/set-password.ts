import { useMutation } from '@tanstack/react-query';
import type { MessageReply, SetPasswordBody } from '../../../../contracts/auth';
import { apiSend } from '../../../lib/http';

/** POST /api/auth/set-password: email, the emailed code and the new password. */
export const setPassword = (body: SetPasswordBody) => apiSend<MessageReply>('POST', '/api/auth/set-password', body);

export const useSetPassword = () => useMutation({ mutationFn: setPassword });
