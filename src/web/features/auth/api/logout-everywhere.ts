import { useMutation } from '@tanstack/react-query';
import type { MessageReply } from '../../../../contracts/auth';
import { apiSend } from '../../../lib/http';

/** POST /api/auth/logout-everywhere: ends the member's sessions on every other device. */
export const logoutEverywhere = () => apiSend<MessageReply>('POST', '/api/auth/logout-everywhere');

export const useLogoutEverywhere = () => useMutation({ mutationFn: logoutEverywhere });
