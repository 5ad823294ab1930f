import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminUser, CreateAdminUserInput } from '../../../../contracts/admin';
import { apiSend } from '../../../lib/http';
import { adminKeys } from './keys';

export function createUser(input: CreateAdminUserInput): Promise<AdminUser> {
  return apiSend<AdminUser>('POST', '/api/admin/users', input);
}

export function useCreateUser() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: createUser,
    onSuccess: () => qc.invalidateQueries({ queryKey: adminKeys.all }),
  });
}
