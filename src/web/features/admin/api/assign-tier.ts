import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AssignTierBody, AuthReply } from '../../../../contracts/auth';
import { apiSend } from '../../../lib/http';
import { adminKeys } from './keys';

/** POST /api/admin/assign-tier {email, tier, expiryDays, username?}; creates the member when the email is new. */
export function assignTier(input: AssignTierBody): Promise<AuthReply> {
  return apiSend<AuthReply>('POST', '/api/admin/assign-tier', input);
}

export function useAssignTier() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: assignTier,
    onSuccess: () => qc.invalidateQueries({ queryKey: adminKeys.all }),
  });
}
