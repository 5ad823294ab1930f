import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AuthReply, VerifyCodeBody } from '../../../../contracts/auth';
import { apiSend } from '../../../lib/http';

/** POST /api/auth/code-login: signs in with the 6-digit code of the sign-in mail (in the body, never a URL). */
export const signInWithCode = (body: VerifyCodeBody) => apiSend<AuthReply>('POST', '/api/auth/code-login', body);

/** Signs in, then refreshes every cached read. */
export function useSignInWithCode() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: signInWithCode, onSuccess: () => qc.invalidateQueries() });
}
