import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminSetupBody, AuthReply } from '../../../../contracts/auth';
import { apiSend } from '../../../lib/http';

/** POST /api/admin/setup: creates the first admin and signs them in. */
export const adminSetup = (body: AdminSetupBody) => apiSend<AuthReply>('POST', '/api/admin/setup', body);

export function useAdminSetup() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: adminSetup, onSuccess: () => qc.invalidateQueries() });
}
