import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminUser, UpdateAdminUserInput } from '../../../../contracts/admin';
import { apiSend } from '../../../lib/http';
import { adminKeys } from './keys';

/** PUT the whole edited user; pledgeAmount in cents. */
export function updateUser(input: UpdateAdminUserInput & { id: string }): Promise<AdminUser> {
  return apiSend<AdminUser>('PUT', `/api/admin/users/${encodeURIComponent(input.id)}`, input);
}

export function useUpdateUser() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: updateUser,
    onSuccess: () => qc.invalidateQueries({ queryKey: adminKeys.all }),
  });
}
