import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AuthReply, LoginBody } from '../../../../contracts/auth';
import { apiSend } from '../../../lib/http';

/** POST /api/auth/email-login-secure. */
export const login = (body: LoginBody) => apiSend<AuthReply>('POST', '/api/auth/email-login-secure', body);

/** Signs in, then refreshes every cached read ("after login refreshes all cached data"). */
export function useLogin() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: login, onSuccess: () => qc.invalidateQueries() });
}
