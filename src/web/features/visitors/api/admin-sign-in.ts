import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AuthReply, LoginBody } from '../../../../contracts/auth';
import { apiSend } from '../../../lib/http';

/** POST /api/admin/signin: email and the admin's password (docs/decisions/0007-accounts-sign-in-and-rate-limits.md). */
export const adminSignIn = (body: LoginBody) => apiSend<AuthReply>('POST', '/api/admin/signin', body);

/** Signs the admin in, then refreshes every cached read (permissions, the monitor). */
export function useAdminSignIn() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: adminSignIn, onSuccess: () => qc.invalidateQueries() });
}
