import { useMutation } from '@tanstack/react-query';
import type { MessageReply, VerifyCodeBody } from '../../../../contracts/auth';
import { apiSend } from '../../../lib/http';

/** POST /api/auth/set-password/verify-code: checks the code without using it up. */
export const verifyPasswordCode = (body: VerifyCodeBody) => apiSend<MessageReply>('POST', '/api/auth/set-password/verify-code', body);

export const useVerifyPasswordCode = () => useMutation({ mutationFn: verifyPasswordCode });
