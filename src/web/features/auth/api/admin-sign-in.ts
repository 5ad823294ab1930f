import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AuthReply, LoginBody } from '../../../../contracts/auth';
import { apiSend } from '../../../lib/http';

/** POST /api/admin/signin: the admin's email and password (never email alone). */
export const adminSignIn = (body: LoginBody) => apiSend<AuthReply>('POST', '/api/admin/signin', body);

export function useAdminSignIn() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: adminSignIn, onSuccess: () => qc.invalidateQueries() });
}
